import SeedModel
import SeedStore

extension SeedUpdater {
    /// What a seed object of the new seed becomes in the store (`temp.seedgen_new_objects.FATE`).
    enum Fate: String {
        /// Not in the store's record: inserted.
        case add
        /// The store holds it as its seed wrote it, and the new seed has it the same.
        case seeded
        /// The store holds it as its seed wrote it; the new seed changes it: changed.
        case changed
        /// The user changed it since install: left alone.
        case user
        /// The user deleted it: not brought back.
        case deleted
        /// New to the store's seed, but a user's object holds its key: the user's object stays.
        case clash
        /// New to the store's seed, but its owner (the object a required to-one, or one whose
        /// inverse deletes by cascade, points at) the user deleted, or is not added itself:
        /// not added, as the user's deletion would have taken it too.
        case ownerDeleted = "orphan"

        /// The fate as an SQL literal, for the `FATE` column of the update's TEMP tables.
        var sql: String { "'\(rawValue)'" }
    }

    /// The update, inside the write transaction `database` holds with the new seed attached as
    /// `seed`: every phase in order.
    func update(in database: Database, seed: StoreMetadata) throws -> SeedUpdateReport {
        let metadata = try checkedMetadata(database, path: storePath)
        guard try SeedRecord.hasRecord(in: database) else {
            throw SeedUpdateError(.noSeedRecord, Self.noRecordMessage(storePath))
        }
        if let held = metadata.originDigest, held == seed.originDigest { return SeedUpdateReport(updated: false) }
        let store = try StoreFile(path: storePath, database: database).storedLayout(of: layout, frameworkVersion: metadata.frameworkVersion).layout
        let names = ObjectNames(layout: store, buildKeys: metadata.buildKeys.merging(seed.buildKeys) { _, newer in newer }, contentByDigest: true,
                                namedWithoutOwner: ObjectNames.namedWithoutOwner(recordNamesWithinOwners: metadata.namesWithinOwners, in: store))
        var context = UpdateContext(database: database, store: store, names: names)
        do {
            // A record an install packed is unpacked here, in the update's transaction.
            context.recordDigestsAreCurrent = try SeedRecord.unpack(in: database, path: storePath)
            var run = UpdateRun(context: context, path: storePath, seed: seed)
            for phase in UpdatePhase.allCases {
                try run.perform(phase)
                try afterPhase?(phase, database)
            }
            return run.report
        } catch let error as DamagedRecordError {
            throw SeedUpdateError(.damaged, "\(storePath): \(error); nothing was changed")
        }
    }
}
