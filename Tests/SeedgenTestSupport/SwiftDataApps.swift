import Foundation

/// Real public apps' SwiftData model sources (each with its licence), in
/// `$SEEDGEN_SWIFTDATA_APPS` or else `../shared/swiftdata-apps` beside the package, with what
/// SwiftData's `Schema` would hold for each (`EXPECT.tsv`, read by hand from the sources).
public enum SwiftDataApps {
    /// The folder, or nil when there is none on this machine.
    public static let root = Corpus.sharedFolder("swiftdata-apps", overriddenBy: "SEEDGEN_SWIFTDATA_APPS")

    /// True when the tests over real apps can run.
    public static var isAvailable: Bool { root != nil }

    /// Why they are skipped, for the test report.
    public static let skipMessage = "real SwiftData apps not found: set SEEDGEN_SWIFTDATA_APPS or put them at ../shared/swiftdata-apps"

    /// One row of `EXPECT.tsv`: a schema an app builds and the entities it holds.
    public struct Case: Sendable, CustomStringConvertible {
        /// The case's folder (`recipes-8f93444b`).
        public let name: String
        /// What the app hands its container: class names, or one VersionedSchema.
        public let schema: [String]
        /// The entity names SwiftData's `Schema` would hold, sorted.
        public let entities: [String]

        /// The case's sources.
        public var sources: URL { root!.appendingPathComponent("\(name)/src") }
        public var description: String { "\(name) \(schema.joined(separator: ","))" }
    }

    /// Every row of `EXPECT.tsv` (none without the folder).
    public static let cases: [Case] = {
        guard let root, let text = try? String(contentsOf: root.appendingPathComponent("EXPECT.tsv"), encoding: .utf8) else { return [] }
        return text.split(separator: "\n").dropFirst().compactMap { line in
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard fields.count >= 3 else { return nil }
            return Case(name: fields[0], schema: fields[1].split(separator: ",").map(String.init), entities: fields[2].split(separator: ",").map(String.init).sorted())
        }
    }()
}
