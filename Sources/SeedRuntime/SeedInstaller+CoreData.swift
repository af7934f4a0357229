// Apple platforms only: the installer for an app that reads its store with Core Data. It cannot
// be compiled or run on Linux (no Core Data there); everything it calls is the hash-only path
// the Linux tests cover.
#if canImport(CoreData)
import CoreData
import Foundation
import SeedModel

extension ModelIdentity {
    /// The identity of a compiled model (`.momd`): its `entityVersionHashesByName`.
    public init(_ model: NSManagedObjectModel) {
        self.init(entityVersionHashes: model.entityVersionHashesByName.mapValues { [UInt8]($0) })
    }
}

extension SeedInstaller {
    /// Installs `seed` as the store `container` will open, before `loadPersistentStores`: at the
    /// URL of its first store description (Core Data's default place when it has none), for its
    /// model, when no store is there yet (see `install()`). With the policy `.update`, a store
    /// installed from an older seed gets this one's objects (migrated first when the seed is of
    /// a newer model version), so Core Data then opens a store with nothing left to migrate.
    ///
    /// ```swift
    /// let container = NSPersistentContainer(name: "Shelf")
    /// try SeedInstaller.install(seed: Bundle.main.url(forResource: "Shelf", withExtension: "sqlite")!, for: container)
    /// container.loadPersistentStores { _, error in /* … */ }
    /// ```
    @discardableResult
    public static func install(seed: URL, for container: NSPersistentContainer, policy: Policy = .keep) throws(InstallError) -> InstallReport {
        let store = container.persistentStoreDescriptions.first?.url
            ?? NSPersistentContainer.defaultDirectoryURL().appendingPathComponent("\(container.name).sqlite")
        let installer = SeedInstaller(seedPath: seed.path, storePath: store.path, model: ModelIdentity(container.managedObjectModel), policy: policy)
        return try installer.install()
    }
}
#endif
