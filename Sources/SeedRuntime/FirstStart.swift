import Foundation
import SeedModel
import SeedStore

/// The seed-004 flow on an app's start: install the seed when there is no store; when a store
/// is there but its initialisation check finds nothing, fill it from the source data; when it
/// is initialised, leave it alone.
public enum FirstStart {
    /// What the start did.
    public enum Outcome: Sendable, Equatable {
        /// There was no store: the seed was installed.
        case installedSeed
        /// The store was there and initialised; it was left alone.
        case alreadyInitialised
        /// The store was there but not initialised: it was filled from the source data. The
        /// store it had is kept at `backup`.
        case filled(backup: String)
    }

    /// Runs the flow. `fill` writes a complete store to the path it is given (the app builds it
    /// from its source data with `SeedImporter`); it runs only when the store needs filling.
    ///
    /// Everything happens under the installer's lock, so two processes starting at once fill
    /// once. The new store is built in a folder beside the old one (`.<store>.seedgen-install-fill-…`,
    /// removed by the next start if this one is killed) and installed in its place with the
    /// installer's checks; the old file is kept.
    public static func run(_ installer: SeedInstaller, fill: (String) throws -> Void) throws -> Outcome {
        // An initialised store in a directory this process cannot write: nothing to do there.
        if installer.reportWithoutWriting() != nil, (try? installer.storeIsInitialised()) == true { return .alreadyInitialised }
        return try installer.withLock { () throws(InstallError) -> Outcome in
            let report = try installer.installLocked()
            guard report.action == .alreadyPresent else { return .installedSeed }
            if try installer.storeIsInitialised() { return .alreadyInitialised }
            let folder = URL(fileURLWithPath: installer.directory).appendingPathComponent(installer.temporaryPrefix + "fill-\(FileSystem.processID)")
            defer { try? FileManager.default.removeItem(at: folder) }
            let filled = folder.appendingPathComponent(installer.storeName).path
            do {
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                try fill(filled)
            } catch {
                throw InstallError(.fillFailed(path: installer.storePath, problem: "\(error)"),
                                   "filling \(installer.storePath) from the source data failed: \(error)")
            }
            var filler = installer
            filler.seedPath = filled
            filler.policy = .replaceIfNotInitialised
            let result = try filler.installLocked(cleaningUp: false)
            guard case .replaced(let backup) = result.action else { return .alreadyInitialised }
            return .filled(backup: backup)
        }
    }
}
