import SeedModel
import SeedStore

/// What a seed update must account for, counted inside its transaction before a row of the
/// model is written: each concrete entity's rows, the `Z_PK` above which new objects are
/// numbered in each table, the digest of every object the user changed since install or made,
/// and every many-to-many link the user made or that holds a user's object.
/// `requireConserved` counts the result before `COMMIT`: each entity must hold its rows but
/// those the report says were removed, and above the numbering base exactly those it says
/// were added; every object the user changed or made must hold what it held, every such link
/// must be there, and no link may point at an object the store does not hold (checked where
/// rows were added, changed or removed). Otherwise the update throws `.notConserved`, and the
/// transaction is rolled back.
///
/// Each count is one pass over a table (for a table of one entity, SQLite counts the rows above
/// the base by a range of its `Z_PK`s); the user's objects and links are a few in a store,
/// kept in `temp.seedgen_ledger_user_objects` and `temp.seedgen_ledger_links`. A to-one's links are
/// checked by its distinct values (read from its index), each looked up once.
struct UpdateLedger {
    /// The store's concrete entities by table.
    private let tables: [(table: String, entities: [EntityLayout])]
    /// Each table's highest `Z_PK` (or `Z_MAX`) before the update: new objects are numbered above it.
    private let bases: [String: Int64]
    /// Each concrete entity's rows before the update.
    private var rows: [String: Int64] = [:]
    /// The links that pointed at nothing before the update, of each relationship it may leave
    /// so (`linksToCheck`): the update may not make more.
    private var dangling: [String: (links: LinkColumns, before: Int64)] = [:]

    /// Counts the store open on `database`, laid out as `store`, after `UpdateClassification.classify`
    /// (which `temp.seedgen_recorded` holds) and `SeedChanges.markChanges`; `touched`, the entities
    /// whose rows the update may write or remove.
    init(counting database: Database, store: StoreLayout, touched: Set<String>) throws {
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
            CREATE TEMP TABLE \(UpdateScratch.ledgerUserObjects) AS SELECT ENTITY, PK, CURRENT_DIGEST FROM temp.\(UpdateScratch.recorded) WHERE CURRENT_DIGEST IS NOT NULL AND CURRENT_DIGEST IS NOT SEEDED_DIGEST
            """)
        // And those the user made (not in the record): looked for only where an entity's rows
        // outnumber its recorded objects still there.
        for entity in concrete {
            let number: [SQLValue] = [.integer(Int64(entity.number))]
            guard try database.scalar("SELECT COUNT(*) FROM temp.\(UpdateScratch.recorded) WHERE ENTITY = ? AND CURRENT_DIGEST IS NOT NULL", number)?.integer != rows[entity.name] else { continue }
            try database.execute("""
                INSERT INTO temp.\(UpdateScratch.ledgerUserObjects) SELECT t.Z_ENT, t.Z_PK, \(SeedRecord.digestSQL(of: entity, in: store, alias: "t"))
                FROM main.\(Database.quote(entity.table)) t WHERE t.Z_ENT = \(entity.number)
                  AND NOT EXISTS (SELECT 1 FROM main.\(SeedRecord.table) r WHERE r.ENTITY = \(entity.number) AND r.PK = t.Z_PK)
                """)
        }
        // The many-to-many links that hold an object the record does not (the user's).
        try database.execute("CREATE TEMP TABLE \(UpdateScratch.ledgerLinks) (JOINTABLE TEXT, A INTEGER, B INTEGER)")
        for join in store.joinTables {
            guard let owner = store.entity(named: join.entity), let member = store.entity(named: join.inverseEntity) else { continue }
            let (first, second) = (Database.quote(join.firstColumn), Database.quote(join.secondColumn))
            try database.run("""
                INSERT INTO temp.\(UpdateScratch.ledgerLinks) SELECT ?, j.\(first), j.\(second) FROM main.\(Database.quote(join.name)) j
                WHERE NOT EXISTS (SELECT 1 FROM main.\(SeedRecord.table) r WHERE r.ENTITY IN (\(owner.subtreeList)) AND r.PK = j.\(first))
                   OR NOT EXISTS (SELECT 1 FROM main.\(SeedRecord.table) r WHERE r.ENTITY IN (\(member.subtreeList)) AND r.PK = j.\(second))
                """, [.text(join.name)])
        }
        for (relationship, links) in Self.linksToCheck(touching: touched, in: store) {
            dangling[relationship] = (links, try Self.danglingLinks(links, in: database))
        }
    }

    /// Throws `.notConserved`, naming each difference, unless the store open on `database`
    /// holds what the count and `report` say it must.
    func requireConserved(in database: Database, store: StoreLayout, report: SeedUpdateReport, path: String) throws {
        defer { try? database.execute("DROP TABLE IF EXISTS temp.\(UpdateScratch.ledgerUserObjects); DROP TABLE IF EXISTS temp.\(UpdateScratch.ledgerLinks)") }
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
                SELECT COUNT(*) FROM temp.\(UpdateScratch.ledgerUserObjects) u LEFT JOIN main.\(Database.quote(entity.table)) t ON t.Z_PK = u.PK AND t.Z_ENT = u.ENTITY
                WHERE u.ENTITY = ? AND (t.Z_PK IS NULL OR \(SeedRecord.digestSQL(of: entity, in: store, alias: "t")) IS NOT u.CURRENT_DIGEST)
                """, [.integer(Int64(entity.number))])?.integer ?? 0
            if changed > 0 { lost.append(.userChangesLost(entity: entity.name, objects: Int(changed))) }
        }
        lost += try lostLinks(in: database, store: store)
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

    /// The user's many-to-many links missing, and more links than before that point at an
    /// object the store does not hold (`danglingLinks`).
    private func lostLinks(in database: Database, store: StoreLayout) throws -> [ConservationFinding] {
        var lost: [ConservationFinding] = []
        for join in store.joinTables {
            let (first, second) = (Database.quote(join.firstColumn), Database.quote(join.secondColumn))
            let missing = try database.scalar("""
                SELECT COUNT(*) FROM temp.\(UpdateScratch.ledgerLinks) l WHERE l.JOINTABLE = ?
                  AND NOT EXISTS (SELECT 1 FROM main.\(Database.quote(join.name)) j WHERE j.\(first) = l.A AND j.\(second) = l.B)
                """, [.text(join.name)])?.integer ?? 0
            if missing > 0 { lost.append(.userLinksLost(relationship: "\(join.entity).\(join.relationship)", links: Int(missing))) }
        }
        for (relationship, checked) in dangling.sorted(by: { $0.key < $1.key }) {
            let after = try Self.danglingLinks(checked.links, in: database)
            if after > checked.before { lost.append(.danglingLinks(relationship: relationship, links: Int(after - checked.before))) }
        }
        return lost
    }

    /// The relationships whose links an update may leave pointing at nothing, by the name a
    /// finding gives (`Entity.relationship`): to-ones (and owner columns) of a table where
    /// `touched` entities' rows are written, or into a `touched` entity (one that may lose
    /// rows), and every join table (links change between objects the update leaves as they are).
    static func linksToCheck(touching touched: Set<String>, in store: StoreLayout) -> [String: LinkColumns] {
        let tables = Set(touched.compactMap { store.entity(named: $0)?.table })
        var links: [String: LinkColumns] = [:]
        for table in store.tables {
            for column in table.columns {
                guard let target = column.referencedEntity.flatMap(store.entity(named:)),
                      tables.contains(table.name) || tables.contains(target.table) else { continue }
                let label = switch column.role {
                case .foreignKey(let entity, let relationship, _): "\(entity).\(relationship)"
                case .ownerKey(_, let owner, let relationship): "\(owner).\(relationship)"
                case .attribute, .foreignEntity, .foreignOrder: "\(table.name).\(column.name)"  // they reference nothing
                }
                links[label] = .toOne(table: table.name, column: column.name, target: target)
            }
        }
        for join in store.joinTables {
            guard let owner = store.entity(named: join.entity), let member = store.entity(named: join.inverseEntity) else { continue }
            links["\(join.entity).\(join.relationship)"] = .joinTable(join, owner: owner, member: member)
        }
        return links
    }

    /// Where a relationship's links are held.
    enum LinkColumns {
        /// A column of `table` holding the `Z_PK` of an object of `target`.
        case toOne(table: String, column: String, target: EntityLayout)
        /// A join table between objects of `owner` (first column) and `member` (second).
        case joinTable(JoinTableLayout, owner: EntityLayout, member: EntityLayout)
    }

    /// The links `links` holds that point at an object the store does not hold: a to-one's by
    /// its distinct values (read from its index), each looked up once.
    static func danglingLinks(_ links: LinkColumns, in database: Database) throws -> Int64 {
        switch links {
        case let .joinTable(join, owner, member):
            let (first, second) = (Database.quote(join.firstColumn), Database.quote(join.secondColumn))
            return try database.scalar("""
                SELECT COUNT(*) FROM main.\(Database.quote(join.name)) j
                WHERE NOT EXISTS (SELECT 1 FROM main.\(Database.quote(owner.table)) t WHERE t.Z_PK = j.\(first) AND t.Z_ENT IN (\(owner.subtreeList)))
                   OR NOT EXISTS (SELECT 1 FROM main.\(Database.quote(member.table)) t WHERE t.Z_PK = j.\(second) AND t.Z_ENT IN (\(member.subtreeList)))
                """)?.integer ?? 0
        case let .toOne(table, column, target):
            let quoted = Database.quote(column)
            return try database.scalar("""
                SELECT COUNT(*) FROM (SELECT DISTINCT \(quoted) AS V FROM main.\(Database.quote(table)) WHERE \(quoted) IS NOT NULL) v
                WHERE NOT EXISTS (SELECT 1 FROM main.\(Database.quote(target.table)) t WHERE t.Z_PK = v.V AND t.Z_ENT IN (\(target.subtreeList)))
                """)?.integer ?? 0
        }
    }
}
