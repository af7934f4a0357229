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
    /// Filling builds a new store beside the old one and installs it in the old one's place with
    /// the installer's guarantees (lock, checks, no half-written file); under the lock the old
    /// store's check runs again, so two processes starting at once fill it once.
    public static func run(_ installer: SeedInstaller, fill: (String) throws -> Void) throws -> Outcome {
        let report = try installer.install()
        if report.action == .installed { return .installedSeed }
        if case .replaced = report.action { return .installedSeed }
        let connection = try StoreConnection(path: installer.storePath, layout: installer.layout, access: .readOnly)
        if try connection.isInitialised(template: installer.initialisationCheck) { return .alreadyInitialised }
        let directory = URL(fileURLWithPath: installer.storePath).deletingLastPathComponent()
        let filled = directory.appendingPathComponent(".\(installer.storeName).seedgen-fill-\(getpid()).sqlite").path
        defer { try? FileManager.default.removeItem(atPath: filled) }
        try fill(filled)
        var filler = installer
        filler.seedPath = filled
        filler.policy = .replaceIfNotInitialised
        let result = try filler.install()
        if case .replaced(let backup) = result.action { return .filled(backup: backup) }
        return .alreadyInitialised
    }
}
