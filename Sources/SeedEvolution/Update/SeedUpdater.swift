import Foundation
import SeedModel
import SeedStore

/// Brings a newer seed into a store installed from an older seed of the same model, keeping
/// what the user did: in one SQLite transaction, objects the new seed adds are inserted, those
/// it changes are changed and those it no longer holds are deleted — unless the user changed
/// them since install (their values stay), deleted them (they stay deleted), or still points
/// at them (they stay, as the user's). Objects the user made are never touched, nor their
/// relationships.
///
/// Objects are matched by key: the store's record of its seed (`SeedRecord`, written when it was
/// installed) against the new seed's, made from its rows; whether the user changed an object is
/// told by its row's digest against the one the record holds. The store's
/// `Z_PK`s stay, new objects get the next ones (`Z_MAX` kept right), relationships and ordered
/// positions are carried into the store's numbering. Afterwards the store records the new
/// seed: applying the same update again changes nothing, and an update from seed 1 straight
/// to seed 3 works as well as through seed 2.
package struct SeedUpdater: Sendable {
    /// The installed store.
    let storePath: String
    /// The new seed.
    let seedPath: String
    /// The model both are of.
    let layout: StoreLayout
    /// The model's versions, when a store of an older one is to be migrated first.
    let versions: ModelVersions?
    /// Runs after each phase inside the transaction, before the next (tests break the engine
    /// there on purpose, to see the check before `COMMIT` catch it).
    package var afterPhase: (@Sendable (UpdatePhase, Database) throws -> Void)?

    /// An updater of the store at `storePath` to the seed at `seedPath`, both of `layout`'s model.
    package init(storeAt storePath: String, seedAt seedPath: String, layout: StoreLayout) {
        self.storePath = storePath
        self.seedPath = seedPath
        self.layout = layout
        self.versions = nil
    }

    /// An updater of the store at `storePath` to the seed at `seedPath`, a seed of the current
    /// version of the bundle `versions`: a store of an older version is first migrated to it,
    /// as Core Data's lightweight migration would (``StoreMigrator``, its own transaction; the
    /// store's seed record is carried over), then updated. Without the bundle, the models the
    /// seed and the store carry serve (`init(storeAt:seedAt:model:)`).
    package init(storeAt storePath: String, seedAt seedPath: String, versions: ModelVersions) throws(SeedUpdateError) {
        self.storePath = storePath
        self.seedPath = seedPath
        do {
            self.layout = try StoreLayout(model: versions.current.model)
        } catch {
            throw SeedUpdateError(.unreadable, "the model's current version \(versions.current.name) has no store layout: \(error)")
        }
        self.versions = versions
    }

    /// How long an update waits for another connection's write lock, in milliseconds.
    static let lockWait: Int32 = 60_000

    /// Updates the store, or finds that it holds the new seed already. Throws, with the store
    /// unchanged, when either file cannot be read or is of another model version, when the
    /// store carries no seed record, or when writing fails.
    package func update() throws(SeedUpdateError) -> SeedUpdateReport {
        for (path, what) in [(storePath, "store"), (seedPath, "seed")] {
            if FileSystem.kind(of: path) == .missing { throw SeedUpdateError(.unreadable, "\(path): no such \(what) file") }
            do {
                // A seed is whole in one file; a user's store may have its journal beside it.
                try SeedCheck.checkFile(path, whole: what == "seed")
            } catch {
                throw SeedUpdateError(reading: error, "\(error)")
            }
        }
        let seed = try readSeed()
        // Before a migration writes anything: a store without its record cannot be updated.
        try requireStoreRecord()
        let migration = try migrateFirst()
        do {
            // The new seed read-only, as a snapshot (it is a file nothing writes).
            var report = try Database.durableTransaction(path: storePath, lockWait: Self.lockWait, attaching: [(seedPath, "seed")]) { database in
                let report = try update(in: database, seed: seed)
                return (report, report.updated)
            }
            report.seedDigest = seed.originDigest
            report.migratedFrom = migration?.plan.sourceVersion
            report.migrationRemovals = migration?.assessment.removals ?? []
            report.migrationWarnings = migration?.assessment.warnings ?? []
            return report
        } catch let failure as DurableWriteFailure {
            throw SeedUpdateError(reading: failure.underlying, "\(storePath): cannot be opened for writing: \(failure)")
        } catch {
            if let error = error as? SeedUpdateError { throw error }
            throw SeedUpdateError(.writeFailed, "\(storePath): the update failed and was rolled back, the store is as it was: \(error)")
        }
    }

    /// With the model's versions, migrates a store of an older version to the current one;
    /// returns what the migration did, nil when the store was current (or no versions were given).
    private func migrateFirst() throws(SeedUpdateError) -> StoreMigrator.Report? {
        guard let versions else { return nil }
        do {
            let report = try StoreMigrator(storeAt: storePath, versions: versions).migrate()
            return report.migrated ? report : nil
        } catch {
            let reason: SeedUpdateError.Reason = switch error.reason {
            case .unreadableStore: .unreadable
            case .damagedStore: .damaged
            case .writeFailed: .writeFailed
            // The migration's own check found it would lose something: said as the update's.
            case .notConserved(let findings): .notConserved(findings)
            case .unknownVersion, .refused, .foreignContent, .notCarriedOut, .customStage: .otherModelVersion
            }
            // The migration's message names the store already: the path is said once.
            throw SeedUpdateError(reason, "\(storePath): cannot be brought to the model's current version first: \(error.description.droppingPathPrefix(storePath))")
        }
    }

    /// Throws `.noSeedRecord` when the store carries no record of the seed it was installed
    /// from (read-only; after a killed write, the journal is rolled back first by a writer).
    private func requireStoreRecord() throws(SeedUpdateError) {
        do {
            try StoreFile.rollBackInterruptedWrite(at: storePath, lockWait: Self.lockWait)
            guard try SeedRecord.hasRecord(in: try StoreFile(path: storePath).database) else {
                throw SeedUpdateError(.noSeedRecord, Self.noRecordMessage(storePath))
            }
        } catch let error as SeedUpdateError {
            throw error
        } catch {
            throw SeedUpdateError(reading: error, "\(storePath): cannot be read as a store: \(error)")
        }
    }

    /// Why a store without its seed record is not updated.
    static func noRecordMessage(_ path: String) -> String {
        "\(path): the store carries no record of the seed it was installed from (\(SeedRecord.table)), so which objects the user changed cannot be told; nothing was changed. A store records its seed when it is installed with `seedgen install` or the runtime's policy `.update` (a plain copy of a seed does not), or when it came from a seed that carried its record (built by an earlier seedgen)"
    }

    /// The new seed's metadata, checked: of the model. (A seed carries no record: the update
    /// makes the new seed's from its rows, `UpdatePhase.recordSeed`.)
    private func readSeed() throws(SeedUpdateError) -> StoreMetadata {
        do {
            let file = try StoreFile(path: seedPath)
            return try checkedMetadata(file.database, path: seedPath)
        } catch let error as SeedUpdateError {
            throw error
        } catch {
            throw SeedUpdateError(reading: error, "\(seedPath): cannot be read as a seed: \(error)")
        }
    }

    /// The metadata of the store open on `database`, which must be of `layout`'s model version.
    func checkedMetadata(_ database: Database, path: String) throws -> StoreMetadata {
        guard let (_, metadata) = try database.storeMetadata() else {
            throw SeedUpdateError(.damaged, "\(path): no metadata row in Z_METADATA")
        }
        let differences = metadata.differences(from: layout.model)
        guard differences.isEmpty else {
            throw SeedUpdateError(.otherModelVersion, "\(path): not of the model's current version (\(differences.joined(separator: "; "))); migrate it first (seedgen migrate)")
        }
        return metadata
    }
}
