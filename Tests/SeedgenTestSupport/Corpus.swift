import Foundation

/// The real Core Data stores in `$SEEDGEN_CORPUS`, or else `../shared/corpus` beside the package.
///
/// Tests only ever read these files or copy them into a temporary directory first.
public enum Corpus {
    /// The corpus folder, or nil when there is none on this machine.
    public static let root = sharedFolder("corpus", overriddenBy: "SEEDGEN_CORPUS")

    /// A folder of shared test material: `$variable` when set (nil if nothing is there), else
    /// `../shared/<name>` beside the package when it exists.
    public static func sharedFolder(_ name: String, overriddenBy variable: String) -> URL? {
        if let path = ProcessInfo.processInfo.environment[variable], !path.isEmpty {
            return FileManager.default.fileExists(atPath: path) ? URL(fileURLWithPath: path) : nil
        }
        let beside = packageRoot.deletingLastPathComponent().appendingPathComponent("shared/\(name)")
        return FileManager.default.fileExists(atPath: beside.path) ? beside : nil
    }

    /// True when the corpus tests can run.
    public static var isAvailable: Bool { root != nil }

    /// Why corpus tests are skipped, for the test report.
    public static let skipMessage = "corpus not found: set SEEDGEN_CORPUS or put it at ../shared/corpus"

    /// One corpus store with its model.
    public struct Store: Sendable, CustomStringConvertible {
        /// The folder name under `coredata/`.
        public let name: String
        /// The store's file name.
        public let fileName: String

        /// The model file (`contents`).
        public var model: URL { root!.appendingPathComponent("coredata/\(name)/contents") }
        /// The store file. Never open it read-write.
        public var store: URL { root!.appendingPathComponent("coredata/\(name)/\(fileName)") }
        public var description: String { name }
    }

    /// Stores written fresh by Core Data from the model beside them, with the framework that
    /// wrote each: the first five, then bookmarks (1333), moody (637) and xcserver (851).
    public static let freshStores: [Store] = stores + [
        Store(name: "bookmarks", fileName: "bookmarks.sqlite"),
        Store(name: "moody", fileName: "moody.sqlite"),
        Store(name: "xcserver", fileName: "xcserver.sqlite"),
    ]

    /// Every corpus store: the fresh ones and wire, which Core Data migrated forward from older
    /// model versions (its schema is not a fresh one; hashes and `verify` apply).
    public static let allStores: [Store] = freshStores + [Store(name: "wire", fileName: "wire.sqlite")]

    /// The first five corpus stores (other tests pick some of them by index).
    public static let stores: [Store] = [
        Store(name: "contentful", fileName: "Test.sqlite"),
        Store(name: "coredataplus", fileName: "SampleModelV1.sqlite"),
        Store(name: "coredatastack", fileName: "TestModel.sqlite"),
        Store(name: "recipes", fileName: "Recipes.sqlite"),
        Store(name: "surfjournal", fileName: "SurfJournalDatabase.sqlite"),
    ]

    /// The package's root folder (where Package.swift is).
    public static let packageRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
}
