import SeedModel
import SeedStore

/// What a seed update must account for, counted inside its transaction before a row of the
/// model is written: each concrete entity's rows, the `Z_PK` above which new objects are
/// numbered in each table, and the digest of every object the user changed since install.
/// `requireConserved` counts the result before `COMMIT`: each entity must hold its rows but
/// those the report says were removed, and above the numbering base exactly those it says
/// were added; every object the user changed must hold what it held. Otherwise the update
/// throws `.notConserved`, and the transaction is rolled back.
///
/// Each count is one pass over a table (for a table of one entity, SQLite counts the rows above
/// the base by a range of its `Z_PK`s); the user's changed objects are a few in a store, their
/// digests kept in `temp.seedgen_ledger_user`.
struct UpdateLedger {
    /// The store's concrete entities by table.
    private let tables: [(table: String, entities: [EntityLayout])]
    /// Each table's highest `Z_PK` (or `Z_MAX`) before the update: new objects are numbered above it.
    private let bases: [String: Int64]
    /// Each concrete entity's rows before the update.
    private var rows: [String: Int64] = [:]

    /// Counts the store open on `database`, laid out as `store`, after `UpdateStep.classify`
    /// (which `temp.seedgen_state` holds).
    init(counting database: Database, store: StoreLayout) throws {
        let concrete = store.entities.filter { !$0.isAbstract }
        tables = store.tables.map { table in (table.name, concrete.filter { $0.table == table.name }) }.filter { !$0.entities.isEmpty }
        var bases: [String: Int64] = [:]
        for table in store.tables {
            bases[table.name] = try database.numberingBase(of: table, in: store)
        }
        self.bases = bases
        for (table, entities) in tables {
            for (entity, counts) in try Self.count(table, entities, above: bases[table] ?? 0, in: database) { rows[entity] = counts.all }
        }
        // The objects the user changed since install: recorded, present, not as seeded.
        try database.execute("""
            CREATE TEMP TABLE seedgen_ledger_user AS SELECT ENTITY, PK, NOW FROM temp.seedgen_state WHERE NOW IS NOT NULL AND NOW IS NOT SEEDED
            """)
    }

    /// Throws `.notConserved`, naming each difference, unless the store open on `database`
    /// holds what the count and `report` say it must.
    func requireConserved(in database: Database, store: StoreLayout, report: SeedUpdateReport, path: String) throws {
        defer { try? database.execute("DROP TABLE IF EXISTS temp.seedgen_ledger_user") }
        func tally(_ objects: [SeedUpdateReport.Object]) -> [String: Int64] {
            objects.reduce(into: [:]) { $0[$1.entity, default: 0] += 1 }
        }
        let added = tally(report.added), removed = tally(report.removed)
        var lost: [ConservationFinding] = []
        for (table, entities) in tables {
            for (entity, counts) in try Self.count(table, entities, above: bases[table] ?? 0, in: database) {
                let before = rows[entity] ?? 0
                let kept = before - (removed[entity] ?? 0)
                if counts.all - counts.new != kept {
                    lost.append(.rows(entity: entity, before: Int(before), removed: Int(removed[entity] ?? 0), after: Int(counts.all - counts.new)))
                }
                if counts.new != added[entity] ?? 0 {
                    lost.append(.added(entity: entity, reported: Int(added[entity] ?? 0), newRows: Int(counts.new)))
                }
            }
        }
        for entity in store.entities where !entity.isAbstract {
            let changed = try database.scalar("""
                SELECT COUNT(*) FROM temp.seedgen_ledger_user u LEFT JOIN main.\(Database.quote(entity.table)) t ON t.Z_PK = u.PK AND t.Z_ENT = u.ENTITY
                WHERE u.ENTITY = ? AND (t.Z_PK IS NULL OR \(SeedRecord.digestSQL(of: entity, in: store, alias: "t")) IS NOT u.NOW)
                """, [.integer(Int64(entity.number))])?.integer ?? 0
            if changed > 0 { lost.append(.userChangesLost(entity: entity.name, objects: Int(changed))) }
        }
        guard lost.isEmpty else {
            throw SeedUpdateError(.notConserved(lost), ConservationFinding.message(lost, engine: "update", path: path))
        }
    }

    /// Each entity's rows in `table`: all of them, and those numbered above `base`.
    private static func count(_ table: String, _ entities: [EntityLayout], above base: Int64, in database: Database) throws -> [(String, (all: Int64, new: Int64))] {
        let quoted = "main.\(Database.quote(table))"
        if entities.count == 1, let entity = entities.first {
            // Z_PK is the rowid: the rows above the base are a range, not a scan.
            let all = try database.scalar("SELECT COUNT(*) FROM \(quoted)")?.integer ?? 0
            let new = try database.scalar("SELECT COUNT(*) FROM \(quoted) WHERE Z_PK > ? AND Z_ENT = ?", [.integer(base), .integer(Int64(entity.number))])?.integer ?? 0
            return [(entity.name, (all, new))]
        }
        var found: [Int: (Int64, Int64)] = [:]
        for row in try database.rows("SELECT Z_ENT, COUNT(*), SUM(Z_PK > ?) FROM \(quoted) GROUP BY Z_ENT", [.integer(base)]) {
            found[Int(row[0].integer ?? -1)] = (row[1].integer ?? 0, row[2].integer ?? 0)
        }
        return entities.map { ($0.name, found[$0.number] ?? (0, 0)) }
    }
}
