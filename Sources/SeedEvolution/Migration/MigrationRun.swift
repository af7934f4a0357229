import SeedModel
import SeedStore

/// One migration as its phases run inside the write transaction (`MigrationPhase`), and what
/// each leaves for the next.
struct MigrationRun {
    let database: Database
    let path: String
    /// What the migration starts from: the plan, which never changes.
    let start: StoreMigrator.Start
    /// What the store's rows decide of the plan: with the removals and warnings once counted.
    private(set) var assessment: StoreAssessment
    let transfer: RowTransfer
    /// The count before a row moves (`.count`).
    private var ledger: MigrationLedger?
    /// What becomes of the seed record, when the store has one (`.markRecord`).
    private var recordMigration: RecordMigration?
    /// The rows each destination entity took over or kept.
    private(set) var counts: [String: Int] = [:]
    /// The indexes that took over a source index's entries.
    private(set) var takenOver: Set<String> = []

    init(database: Database, path: String, start: StoreMigrator.Start, transfer: RowTransfer) {
        self.database = database
        self.path = path
        self.start = start
        self.assessment = start.assessment
        self.transfer = transfer
    }

    mutating func perform(_ phase: MigrationPhase) throws {
        switch phase {
        case .count:
            let ledger = try MigrationLedger(counting: database, plan: start.plan, source: start.source, destination: start.destination.model)
            let contents = StoreContents(database: database, path: path, layout: start.source)
            for table in ledger.tablesWithRowsOfNoEntity { try contents.requireKnownEntities(in: table) }
            assessment = start.assessment.counting(ledger.removals, plan: start.plan, source: start.source.model, destination: start.destination.model)
            self.ledger = ledger
        case .markRecord:
            let packed = try SeedRecord.isPacked(in: database)
            guard try packed || SeedRecord.isPresent(in: database) else {
                return try RecordMigration.renumberIdentifiers(in: database, carriage: transfer.carriage)
            }
            func migration(packed: Bool) throws -> RecordMigration {
                try RecordMigration(carriage: transfer.carriage, buildKeys: (start.buildKeys, start.destinationKeys), recorded: start.record,
                                    namesWithinOwners: start.namesWithinOwners, packed: packed, database: database)
            }
            var record = try migration(packed: packed)
            if packed && !record.keepsPacked {
                // A record an install packed is unpacked here, in the migration's transaction,
                // where an entity's objects are to be digested or named again.
                do {
                    _ = try SeedRecord.unpack(in: database, path: path)
                } catch let error as DamagedRecordError {
                    throw MigrationError(.foreignContent(error.table), "\(path): \(error)")
                }
                record = try migration(packed: false)
            } else if packed {
                // Kept packed: the identifiers the store's build gave objects, by which unpacking
                // names them again, go under their entities' new numbers.
                try RecordMigration.renumberIdentifiers(in: database, carriage: transfer.carriage)
            }
            try record.markUnchanged(in: database, source: start.source)
            recordMigration = record
        case .parkSourceTables:
            try transfer.parkSourceTables()
        case .createTables:
            try transfer.createTables()
        case .renumberKeptTables:
            counts.merge(try transfer.renumberKeptTables()) { _, new in new }
        case .copyRows:
            counts.merge(try transfer.copyEntities()) { _, new in new }
        case .copyJoinTables:
            try transfer.copyJoinTables()
        case .numberNewlyOrdered:
            try transfer.numberNewlyOrdered()
        case .clearDanglingReferences:
            try transfer.clearDanglingReferences()
        case .migrateRecord:
            // While the parked source tables are still there.
            try recordMigration?.digestAfterCopy(in: database, source: start.source, destination: start.destination)
            try recordMigration?.rebase(in: database, destination: start.destination, buildKeys: start.destinationKeys, namesWithinOwners: start.namesWithinOwners)
        case .makeIndexes:
            takenOver = try transfer.makeIndexes()
        case .dropSourceTables:
            try transfer.dropSourceTables()
            if recordMigration != nil { try RecordMigration.dropSourceRecord(in: database) }
        case .rewritePrimaryKeys:
            try transfer.rewritePrimaryKeys()
        case .rewriteMetadata:
            try database.run("UPDATE Z_METADATA SET Z_PLIST = ?", [.blob(start.metadata)])
            // The compiled source model Core Data caches no longer describes the store; seedgen
            // compiles no model, so the cache is left empty (*assumed* harmless, as on seedgen's
            // own stores, which have none).
            if try StoreFile(path: path, database: database).tableExists("Z_MODELCACHE") {
                try database.execute("DELETE FROM Z_MODELCACHE")
            }
        case .checkConservation:
            // Never skipped: a run whose count did not come first is refused.
            guard let ledger else { throw MigrationError(.notConserved([.notCounted]), ConservationFinding.message([.notCounted], engine: "migration", path: path)) }
            try ledger.requireConserved(in: database, plan: start.plan, destination: start.destination, written: transfer.carriage.writtenTables, path: path)
        }
    }
}
