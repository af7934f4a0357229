import SeedModel
import SeedStore

extension SeedUpdater {
    /// An updater that needs no model source: the new seed's model is the one the seed carries
    /// (`SEEDGEN_MODEL`), which must be `model` when given (the app's, as its entity version
    /// hashes); a store of another version is first migrated from the model its own seed
    /// carried, as Core Data's lightweight migration would (``StoreMigrator``). So an app on
    /// Apple platforms, which has only its compiled model, updates and migrates before Core
    /// Data opens the store.
    package init(storeAt storePath: String, seedAt seedPath: String, model: ModelIdentity? = nil) throws(SeedUpdateError) {
        guard let seedModel = try Self.carriedModel(at: seedPath) else {
            throw SeedUpdateError(.damaged, "\(seedPath): the seed carries no model (\(SeedRecord.modelTable)); build it with this seedgen, or give the model")
        }
        let seedIdentity = ModelIdentity(model: seedModel)
        let model = model ?? seedIdentity
        guard seedIdentity == model else {
            let differing = Set(model.entityVersionHashes.keys).union(seedIdentity.entityVersionHashes.keys)
                .filter { model.entityVersionHashes[$0] != seedIdentity.entityVersionHashes[$0] }.sorted()
            throw SeedUpdateError(.otherModelVersion, "\(seedPath): built for another model than the app's (entities whose hashes differ: \(differing.joined(separator: ", ")))")
        }
        let current = ModelVersions.Version(name: "the new seed's model", model: seedModel)
        var versions = [current]
        if let storeModel = try? Self.carriedModel(at: storePath), ModelIdentity(model: storeModel) != model {
            let installed = ModelVersions.Version(name: "the installed seed's model", model: storeModel)
            // A later version of the store's model takes over some of its entities (by name or
            // renaming identifier); one that takes over none is another app's model, and
            // migrating to it would delete every object the store holds.
            let plan = MigrationPlan(from: installed, to: current)
            guard plan.entities.contains(where: { $0.source != nil }) else {
                throw SeedUpdateError(.otherModelVersion, "\(seedPath): built for a model that is not a later version of the store's: it takes over none of the store's entities "
                                      + "(\(storeModel.entities.map(\.name).joined(separator: ", "))); nothing was changed")
            }
            versions.insert(installed, at: 0)
        }
        try self.init(storeAt: storePath, seedAt: seedPath, versions: ModelVersions(versions: versions, current: current))
    }

    /// Whether the seed at `path` carries its model (a seed this seedgen built).
    package static func seedCarriesModel(at path: String) -> Bool {
        (try? carriedModel(at: path)) != nil
    }

    /// The model the store or seed at `path` carries; nil when it carries none.
    private static func carriedModel(at path: String) throws(SeedUpdateError) -> DataModel? {
        do {
            try SeedCheck.checkFile(path, whole: false)
        } catch {
            throw SeedUpdateError(reading: error, "\(error)")
        }
        do {
            return try SeedRecord.carriedModel(at: path)
        } catch {
            throw SeedUpdateError(reading: error, "\(path): its model cannot be read: \(error)")
        }
    }
}
