import SeedModel
import SeedStore

extension RecordMigration {
    /// Before a migration rebuilds the tables, for each entity `rebase` digests and names
    /// again: notes which recorded objects still hold what the seed wrote
    /// (`temp.seedgen_unchanged`, under the numbers they are recorded under).
    func markUnchanged(in database: Database, source: StoreLayout) throws(SQLiteError) {
        let rebased = fates.filter { if case .rebased = $0.fate { true } else { false } }.map(\.source)
        guard !rebased.isEmpty else { return }
        database.registerRowDigest()
        try database.execute("CREATE TEMP TABLE seedgen_unchanged (ENTITY INTEGER, PK INTEGER, PRIMARY KEY (ENTITY, PK)) WITHOUT ROWID")
        for entity in rebased {
            guard let recorded = sourceNumbers.recorded(entity.number) else { continue }
            let digest = sourceRule(of: entity, in: source).sql(alias: "t")
            try database.run("""
                INSERT INTO temp.seedgen_unchanged SELECT r.ENTITY, r.PK FROM \(SeedRecord.table) r
                JOIN \(Database.quote(entity.table)) t ON t.Z_PK = r.PK AND t.Z_ENT = \(entity.number)
                WHERE r.ENTITY = \(recorded) AND r.DIGEST = \(digest.sql)
                """, digest.arguments)
        }
    }

    /// After the rows were copied, before the source tables go: each object of the entities
    /// digested again in place (`Fate.redigested`) that the user left as seeded (its source row
    /// gives its recorded digest) gets its migrated row's digest, in one pass; the key stays, as
    /// does what the user changed or deleted.
    func digestAfterCopy(in database: Database, source: StoreLayout, destination: StoreLayout) throws(SQLiteError) {
        database.registerRowDigest()
        for (old, fate) in fates {
            guard case .redigested(let new, let aside) = fate, let recorded = sourceNumbers.recorded(old.number) else { continue }
            try SeedRecord.redigest(recorded, recordedAs: sourceRule(of: old, in: source), in: aside, numbered: old.number, to: new, of: destination, in: database)
        }
    }

    /// The source record's table while `rebase` writes the destination's (`dropSourceRecord`).
    static let parkedTable = "_seedgen_migrating_\(SeedRecord.table)"

    /// After a migration copied the rows, before the source tables go: the destination's record.
    /// Every row stays under the number it is recorded under, and `RecordNumbers` gives each
    /// entity's number in the destination. An entity carried keeps its rows as they are, as do
    /// those `digestAfterCopy` digested. For the others (`Fate.rebased`), the objects
    /// `markUnchanged` found as seeded get the keys and digests of their migrated rows, so a
    /// later seed of the new version still updates them; an object the user changed or deleted
    /// keeps its old key and digest (which no row of the new layout has): it stays the user's,
    /// or stays deleted. Objects of removed entities leave the record.
    ///
    /// Where at least half the record's rows are written again or leave, the source record is
    /// parked and the destination's written into a fresh table in (entity, `Z_PK`) order, as
    /// the migration copies the model's rows: pages from the end of the file, which the journal
    /// need not save (`dropSourceRecord` drops the parked one). Where fewer, they are taken out
    /// (and put back), and the rest left where they are: moving rows within the table journals
    /// each page they leave. A packed record (`isPacked`) is kept packed: only a migration that
    /// writes no entity's rows again carries one (`keepsPacked`).
    func rebase(in database: Database, destination: StoreLayout, buildKeys: [String: [String]], namesWithinOwners: Bool) throws(SQLiteError) {
        try SeedRecord.writeModel(destination.model, in: database)
        try SeedRecord.writeDigestRules(digestRules, in: database)
        try destinationNumbers.write(in: database)
        // Under which number each entity's rows are recorded: those written again, those kept
        // where they are, those that leave with their entity.
        var rewritten: [(recorded: Int, new: EntityLayout)] = [], kept: [Int] = [], dropped: [Int] = []
        for (old, fate) in fates {
            guard let recorded = sourceNumbers.recorded(old.number) else { continue }
            switch fate {
            case .dropped: dropped.append(recorded)
            case .rebased(let new): rewritten.append((recorded, new))
            case .kept, .redigested: kept.append(recorded)
            }
        }
        guard !rewritten.isEmpty || !dropped.isEmpty else { return }
        // A record kept packed (`keepsPacked`: nothing is written again) loses only the runs of
        // the entities that leave.
        if isPacked {
            try database.execute("DELETE FROM main.\(SeedRecord.packedTable) WHERE ENTITY IN (\(dropped.map(String.init).joined(separator: ", ")))")
            return
        }
        let table = SeedRecord.table
        let rows = Dictionary(uniqueKeysWithValues: try database.rows("SELECT ENTITY, COUNT(*) FROM \(table) GROUP BY ENTITY").compactMap { row in
            row[0].integer.flatMap { entity in row[1].integer.map { (Int(entity), $0) } }
        })
        let leaving = (rewritten.map(\.recorded) + dropped).reduce(0) { $0 + (rows[$1] ?? 0) }, all = rows.values.reduce(0, +)
        let rebuilds = leaving * 2 >= all
        let (source, target) = rebuilds ? (Self.parkedTable, table) : (table, "temp.seedgen_rebased")
        if rebuilds {
            try database.execute("ALTER TABLE main.\(table) RENAME TO \(source); \(SeedRecord.createSQL)")
        } else {
            try database.execute("CREATE TEMP TABLE seedgen_rebased (ENTITY INTEGER, PK INTEGER, KEY TEXT, DIGEST BLOB, PRIMARY KEY (ENTITY, PK)) WITHOUT ROWID")
        }
        let names = ObjectNames(layout: destination, buildKeys: buildKeys, contentByDigest: true,
                                namedWithoutOwner: ObjectNames.namedWithoutOwner(recordNamesWithinOwners: namesWithinOwners, in: destination))
        // Each entity's rows in turn, in record order: copied as they are (`new` nil: kept, when
        // the record is written afresh) or written again.
        let entities: [(recorded: Int, new: EntityLayout?)] = rewritten.map { ($0.recorded, $0.new) } + (rebuilds ? kept.map { ($0, nil) } : [])
        for (recorded, new) in entities.sorted(by: { $0.recorded < $1.recorded }) {
            guard let new else {
                try database.execute("INSERT INTO \(target) SELECT * FROM \(source) WHERE ENTITY = \(recorded)")
                continue
            }
            guard let named = names.namedRows(of: new, identifiedIn: .init(table: "main.\(source)", entity: recorded)) else { continue }
            try database.execute("""
                INSERT INTO \(target)
                SELECT \(recorded), t.Z_PK, n.key, \(SeedRecord.digestSQL(of: new, in: destination, alias: "t"))
                FROM (\(named)) n JOIN \(Database.quote(new.table)) t ON t.Z_PK = n.Z_PK
                WHERE EXISTS (SELECT 1 FROM temp.seedgen_unchanged u WHERE u.ENTITY = \(recorded) AND u.PK = t.Z_PK)
                ORDER BY t.Z_PK;
                INSERT INTO \(target)
                SELECT \(recorded), r.PK, r.KEY, r.DIGEST FROM \(source) r
                WHERE r.ENTITY = \(recorded) AND NOT EXISTS (SELECT 1 FROM temp.seedgen_unchanged u WHERE u.ENTITY = r.ENTITY AND u.PK = r.PK);
                """)
        }
        if !rebuilds {
            try database.execute("""
                DELETE FROM \(table) WHERE ENTITY IN (\((rewritten.map(\.recorded) + dropped).map(String.init).joined(separator: ", ")));
                INSERT INTO \(table) SELECT * FROM temp.seedgen_rebased;
                DROP TABLE temp.seedgen_rebased;
                """)
        }
        try database.execute("DROP TABLE IF EXISTS temp.seedgen_unchanged")
    }

    /// Once the source tables went: the source record's parked table (`rebase`) and the
    /// record of links go. (Join tables may be folded, made or renamed: a later update adds
    /// links only, and records them.)
    static func dropSourceRecord(in database: Database) throws(SQLiteError) {
        try database.execute("DROP TABLE IF EXISTS main.\(parkedTable); DROP TABLE IF EXISTS main.\(SeedRecord.linksTable)")
    }
}

extension RecordMigration {
    /// A seed (no record) keeps the source identifiers its build gave objects
    /// (`SeedRecord.identifiersTable`) under its entities' numbers: each row is put under its
    /// entity's successor's number (`Z_PK`s stay), and rows of an entity the migration removes go.
    static func renumberIdentifiers(in database: Database, carriage: Carriage) throws(SQLiteError) {
        guard try SeedRecord.isPresent(SeedRecord.identifiersTable, in: database) else { return }
        var cases: [String] = []
        for entity in carriage.source.entities where !entity.isAbstract {
            guard let successor = carriage.successor[entity.name].flatMap({ carriage.destination.entity(named: $0) }) else { continue }
            cases.append("WHEN \(entity.number) THEN \(successor.number)")
        }
        let table = "main.\(SeedRecord.identifiersTable)"
        let parked = "_seedgen_renumbering_\(SeedRecord.identifiersTable)"
        // Through a parked copy: numbers swapped between two entities would collide in place.
        try database.execute("""
            ALTER TABLE \(table) RENAME TO \(parked);
            \(SeedRecord.createIdentifiersSQL);
            INSERT INTO \(table) SELECT ENTITY, PK, KEY FROM (SELECT \(cases.isEmpty ? "NULL" : "CASE ENTITY \(cases.joined(separator: " ")) END") AS ENTITY, PK, KEY FROM main.\(parked)) WHERE ENTITY IS NOT NULL;
            DROP TABLE main.\(parked);
            """)
    }
}
