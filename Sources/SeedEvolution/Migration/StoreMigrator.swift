import SeedModel
import SeedStore

/// Carries a store to its model bundle's current version, as Core Data's lightweight migration
/// does: in place, by SQL, in one SQLite transaction.
///
/// The store's version is found from its metadata (`MigrationPlan.sourceVersion`), the plan is
/// made and checked against its rows under the write lock, and only then are its tables
/// rebuilt in the destination's layout, its rows carried over (`Z_PK` and `Z_OPT` kept, entity
/// numbers as a fresh store of the destination numbers them), `Z_PRIMARYKEY` and the metadata
/// rewritten. Whatever fails, and wherever the process dies, SQLite's journal leaves the store
/// wholly as it was or wholly migrated, in its own journal mode; a second migration waiting on
/// the lock finds the store current and writes nothing.
public struct StoreMigrator: Sendable {
    /// The store file.
    let storePath: String
    /// The bundle: the store's version and the current one.
    let versions: ModelVersions
    /// The plans from the store's version, each inferred once (`MigrationPlans`).
    let plans = MigrationPlans()

    /// Runs after each phase inside the transaction, before the next (tests break the engine
    /// there on purpose, to see the check before `COMMIT` catch it).
    package var afterPhase: (@Sendable (MigrationPhase, Database) throws -> Void)?

    /// A migrator of the store at `path` to `versions.current`.
    public init(storeAt path: String, versions: ModelVersions) {
        self.storePath = path
        self.versions = versions
    }

    /// What a migration did.
    public struct Report: Sendable {
        /// The plan carried out (or found unnecessary).
        public var plan: MigrationPlan
        /// What the store's rows decided of it: what the migration removed, the warnings (the
        /// command line prints them; an app's refusals come as `MigrationError.Reason.refused`).
        package var assessment: StoreAssessment
        /// False when the store was at the current version already: nothing was written.
        public var migrated: Bool
        /// Rows carried over, per destination entity (its own rows, not its sub-entities').
        public var rowCounts: [String: Int]
        /// The destination's indexes that took over a source index's entries as they were
        /// (`RowTransfer.adoptIndexes`) rather than being made by sorting the rows.
        package var indexesTakenOver: [String] = []
    }

    /// How long a migration waits for another connection's write lock, in milliseconds.
    static let lockWait: Int32 = 60_000

    /// Migrates the store, or finds it current. Throws, with the store unchanged, when Core
    /// Data would refuse the migration (`.refused`), when the store holds what the migration
    /// cannot keep (`.foreignContent`, `.notCarriedOut`), or when it cannot be read or written.
    public func migrate() throws(MigrationError) -> Report {
        let kind = FileSystem.kind(of: storePath)
        if kind == .missing { throw MigrationError(.unreadableStore, "\(storePath): no such store file") }
        if let what = kind.notAFile { throw MigrationError(.unreadableStore, "\(storePath): \(what), not a store file") }
        do {
            try SeedCheck.checkFile(storePath, whole: false)
        } catch {
            throw MigrationError(reading: error, "\(error)")
        }
        try rollBackInterruptedTransaction()
        // Checked read-only first: a refused store is not even opened for writing (closing a
        // writer's connection would checkpoint a `-wal` into it).
        _ = try check()
        return try migrateInTransaction(adoptingIndexes: true)
    }

    /// Runs the migration as `migrate()` runs it, every phase and every check before the commit
    /// included, in a transaction it then rolls back: returns the report `migrate()` would
    /// return, or throws what it would throw, and the store keeps every byte (a dry run that
    /// cannot disagree with the run). It needs to write the store, as the run does; a store a
    /// killed run left a journal beside is refused, as `check()` refuses it, not rolled back.
    package func rehearse() throws(MigrationError) -> Report {
        _ = try check()
        return try migrateInTransaction(adoptingIndexes: true, rehearsal: true)
    }

    /// The migration in one transaction on a connection of its own (with `rehearsal`, always
    /// rolled back). Where SQLite did not take
    /// a rebuilt table's adopted indexes as it should (`IndexAdoptionError`), the transaction
    /// is rolled back and the migration made again on a new connection (this one's idea of the
    /// schema may be wrong), sorting every index.
    private func migrateInTransaction(adoptingIndexes: Bool, rehearsal: Bool = false) throws(MigrationError) -> Report {
        do {
            return try Database.durableTransaction(path: storePath, lockWait: Self.lockWait, rehearsal: rehearsal) { database in
                let report = try migrate(in: database, adoptingIndexes: adoptingIndexes)
                return (report, report.migrated)
            }
        } catch let failure as DurableWriteFailure {
            throw MigrationError(reading: failure.underlying, "\(storePath): cannot be opened for writing: \(failure)")
        } catch {
            if error is IndexAdoptionError && adoptingIndexes { return try migrateInTransaction(adoptingIndexes: false, rehearsal: rehearsal) }
            if let error = error as? MigrationError { throw error }
            throw MigrationError(.writeFailed, "\(storePath): the migration failed and was rolled back, the store is as it was: \(error)")
        }
    }

    /// The plan for the store, reading it only: its version found by its entity hashes, the
    /// plan to the current version, and its assessment against the store's rows (what they break
    /// is in its `refusals`, not thrown) with, when `countingRemovals`, what it would remove
    /// counted (`removals`, one pass over each table; `migrate()`'s report counts them too).
    /// Throws when the store cannot be read or its version is not in the bundle.
    package func plan(countingRemovals: Bool = true) throws(MigrationError) -> (plan: MigrationPlan, assessment: StoreAssessment) {
        let file = try openReadOnly()
        do {
            let found = try found(in: file.database)
            let plan = plans.plan(from: found.version, to: versions.current)
            let assessment = try plan.assessment(of: file.database, path: storePath, source: found.version)
            guard found.version.name != versions.current.name, countingRemovals else { return (plan, assessment) }
            let source = try sourceLayout(of: found, database: file.database)
            let removals = try MigrationLedger(counting: file.database, plan: plan, source: source, destination: versions.current.model).removals
            return (plan, assessment.counting(removals, plan: plan, source: found.version.model, destination: versions.current.model))
        } catch let error as MigrationError {
            throw error
        } catch {
            throw MigrationError(reading: error, "\(storePath): \(error)")
        }
    }

    /// Finds, without writing, whether `migrate()` would migrate the store: throws what it
    /// would throw before writing (the refusals, what the store holds that the migration cannot
    /// keep); returns the plan. Reads the store as `verify` does: nothing appears beside it.
    public func check() throws(MigrationError) -> MigrationPlan {
        let file = try openReadOnly()
        do {
            return try prepare(file.database)?.plan ?? plans.plan(from: versions.current, to: versions.current)
        } catch let error as MigrationError {
            throw error
        } catch {
            throw MigrationError(reading: error, "\(storePath): \(error)")
        }
    }

    /// Rolls back what an interrupted write left (a hot `-journal` beside the store), so that
    /// the store reads as it was before that write; does nothing when there is none. `migrate()`
    /// does it first; call it before `plan()` or `check()` to read such a store.
    package func recoverInterruptedWrite() throws(MigrationError) {
        try rollBackInterruptedTransaction()
    }

    /// The store, read-only (nothing appears beside it).
    private func openReadOnly() throws(MigrationError) -> StoreFile {
        do {
            return try StoreFile(path: storePath)
        } catch {
            throw MigrationError(reading: error, "\(error)")
        }
    }

    /// What the store's metadata says: its bytes, decoded, the bundle's version it was made for
    /// and its framework era.
    private struct Found {
        var bytes: [UInt8]
        var metadata: StoreMetadata
        var version: ModelVersions.Version
        var era: FrameworkEra
    }

    private func found(in database: Database) throws -> Found {
        let read: (bytes: [UInt8], metadata: StoreMetadata)?
        do {
            read = try database.storeMetadata()
        } catch {
            throw MigrationError(reading: error, "\(storePath): \(error)")
        }
        guard let (bytes, metadata) = read else {
            throw MigrationError(.damagedStore, "\(storePath): no metadata row in Z_METADATA")
        }
        let version = try MigrationPlan.sourceVersion(hashes: metadata.versionHashes, ofStoreAt: storePath, in: versions)
        return Found(bytes: bytes, metadata: metadata, version: version, era: metadata.frameworkVersion.map(FrameworkEra.init(version:)) ?? .newest)
    }

    /// The source version's layout as the store holds it (columns a forward migration kept).
    private func sourceLayout(of found: Found, database: Database) throws -> StoreLayout {
        do {
            return try StoreFile(path: storePath, database: database).storedLayout(of: try StoreLayout(model: found.version.model, era: found.era), frameworkVersion: nil).layout
        } catch let error as LayoutError {
            throw MigrationError(.notCarriedOut(subject: found.version.name), "\(storePath): \(error)")
        }
    }

    /// What a migration of the store open on `database` starts from, every check before the
    /// first write made; nil when the store is at the current version.
    struct Start {
        let plan: MigrationPlan
        /// What the store's rows decide of the plan before the count.
        let assessment: StoreAssessment
        /// The metadata the migrated store gets.
        var metadata: [UInt8]
        var source: StoreLayout
        var destination: StoreLayout
        /// The build-time keys the store's metadata records (for its seed record), under the
        /// source's names and under the destination's (`MigrationPlan.carried(buildKeys:)`).
        var buildKeys: [String: [String]]
        var destinationKeys: [String: [String]]
        /// The seed record's digest rules and entity numbers, checked against the source.
        var record: (rules: [Int: DigestRule], numbers: RecordNumbers) = ([:], .own)
        /// How each table and column is carried (decided once the layouts are known).
        var carriage: Carriage?
        /// Whether the seed record names objects without a key within their owners
        /// (`StoreMetadata.namesWithinOwners`).
        var namesWithinOwners = false
    }

    /// `counted`: inside the migration's transaction, where the count (`.count`) finds a row
    /// of no entity rather than a pass of its own.
    private func prepare(_ database: Database, counted: Bool = false) throws -> Start? {
        let found = try found(in: database)
        let destination = versions.current
        guard found.version.name != destination.name else { return nil }
        let plan = plans.plan(from: found.version, to: destination)
        let assessment = try plan.assessment(of: database, path: storePath, source: found.version)
        guard assessment.isPossible else {
            throw MigrationError(.refused(assessment.refusals), "\(storePath): Core Data would not migrate it from \(found.version.name) to \(destination.name): "
                                 + assessment.refusals.map(\.description).joined(separator: "; "))
        }
        var start: Start
        do {
            let destinationKeys = plan.carried(buildKeys: found.metadata.buildKeys)
            start = Start(plan: plan, assessment: assessment, metadata: try StoreMetadata.rewriting(found.bytes, for: destination.model, buildKeys: destinationKeys),
                          source: try sourceLayout(of: found, database: database),
                          destination: try StoreLayout(model: destination.model, era: found.era), buildKeys: found.metadata.buildKeys, destinationKeys: destinationKeys)
            for model in [found.version.model, destination.model] {
                for entity in model.entities {
                    if let toMany = entity.relationships.first(where: { $0.isToMany && !$0.isTransient && model.inverse(of: $0) == nil }) {
                        throw MigrationError(.notCarriedOut(subject: "\(entity.name).\(toMany.name)"), "\(storePath): '\(entity.name).\(toMany.name)' is a to-many without an inverse: how Core Data migrates its owner column is not known here, so seedgen does not")
                    }
                }
            }
        } catch let error as LayoutError {
            throw MigrationError(.notCarriedOut(subject: destination.name), "\(storePath): \(error)")
        } catch let error as StoreMetadata.DecodingError {
            throw MigrationError(.foreignContent("metadata"), "\(storePath): the metadata \(error.reason)")
        }
        start.namesWithinOwners = found.metadata.namesWithinOwners
        try StoreContents(database: database, path: storePath, layout: start.source).requireOnlyTheModel(readingRows: !counted)
        do {
            start.record = (try SeedRecord.digestRules(in: database, layout: start.source, path: storePath), try RecordNumbers(in: database, layout: start.source))
        } catch let error as DamagedRecordError {
            throw MigrationError(.foreignContent(error.table), "\(storePath): \(error)")
        }
        let carriage = try Carriage(plan: plan, source: start.source, destination: start.destination, path: storePath)
        let transfer = RowTransfer(database: database, carriage: carriage, path: storePath)
        try transfer.requireCarriedShapes()
        try transfer.requireSingleInverseLinks()
        start.carriage = carriage
        return start
    }

    /// A `-journal` beside the store may be hot: a writer (an earlier migration) died inside
    /// its transaction; it is rolled back so that the store is wholly as it was before.
    private func rollBackInterruptedTransaction() throws(MigrationError) {
        do {
            try StoreFile.rollBackInterruptedWrite(at: storePath, lockWait: Self.lockWait)
        } catch {
            throw MigrationError(.unreadableStore, "\(storePath): an interrupted transaction's journal beside it cannot be rolled back: \(error)")
        }
    }

    /// The migration, inside the transaction `database` holds: every phase in order.
    private func migrate(in database: Database, adoptingIndexes: Bool) throws -> Report {
        guard let start = try prepare(database, counted: true), let carriage = start.carriage else {
            let plan = plans.plan(from: versions.current, to: versions.current)
            return Report(plan: plan, assessment: StoreAssessment(refusals: plan.refusals, warnings: plan.warnings), migrated: false, rowCounts: [:])
        }
        var run = MigrationRun(database: database, path: storePath, start: start,
                               transfer: RowTransfer(database: database, carriage: carriage, path: storePath, adoptsIndexes: adoptingIndexes))
        for phase in MigrationPhase.allCases {
            try run.perform(phase)
            try afterPhase?(phase, database)
        }
        return Report(plan: start.plan, assessment: run.assessment, migrated: true, rowCounts: run.counts, indexesTakenOver: run.takenOver.sorted())
    }
}
