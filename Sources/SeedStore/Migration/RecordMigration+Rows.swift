import SeedModel

extension RecordMigration {
    /// Before a migration rebuilds the tables, for each entity digested again: when the rows
    /// keep their entity number and their keys (`keysKept`) and the source table is parked
    /// aside (`parked`), its record is digested in place after the copy (`digestAfterCopy`,
    /// while the source rows are still there to compare with); for the others, notes which
    /// recorded objects still hold what the seed wrote (`temp.seedgen_unchanged`, in
    /// `source`'s numbering), for `rebase`.
    mutating func markUnchanged(in database: Database, source: StoreLayout, parked: [String: String]) throws(SQLiteError) {
        guard rebases else { return }
        database.registerRowDigest()
        try database.execute("CREATE TEMP TABLE seedgen_unchanged (ENTITY INTEGER, PK INTEGER, PRIMARY KEY (ENTITY, PK)) WITHOUT ROWID")
        for (entity, fate) in fates {
            guard case .rebased(let new, let keysKept) = fate else { continue }
            if new.number == entity.number && keysKept, let aside = parked[entity.table] {
                digestedAfterCopy[entity.number] = aside
                continue
            }
            let recorded = sourceRule(of: entity, in: source).sql(alias: "t")
            try database.run("""
                INSERT INTO temp.seedgen_unchanged SELECT r.ENTITY, r.PK FROM \(SeedRecord.table) r
                JOIN \(Database.quote(entity.table)) t ON t.Z_PK = r.PK AND t.Z_ENT = r.ENTITY
                WHERE r.ENTITY = \(entity.number) AND r.DIGEST = \(recorded.sql)
                """, recorded.arguments)
        }
    }

    /// After the rows were copied, before the source tables go: each object of the entities
    /// `markUnchanged` left for now that the user left as seeded (its source row gives its
    /// recorded digest) gets its migrated row's digest, in place, in one pass; the key stays,
    /// as does what the user changed or deleted.
    func digestAfterCopy(in database: Database, source: StoreLayout, destination: StoreLayout) throws(SQLiteError) {
        for (old, fate) in fates {
            guard case .rebased(let new, _) = fate, let aside = digestedAfterCopy[old.number] else { continue }
            try SeedRecord.redigest(old.number, recordedAs: sourceRule(of: old, in: source), in: aside, to: new, of: destination, in: database)
        }
    }

    /// The source record's table while `rebase` writes the destination's (`dropSourceRecord`).
    static let parkedTable = "_seedgen_migrating_\(SeedRecord.table)"

    /// After a migration copied the rows, before the source tables go: the record in the
    /// destination's entity numbers. An entity carried keeps its rows as they are (renumbered
    /// where its number changed), as do those `digestAfterCopy` digested. For the others, the
    /// objects `markUnchanged` found as seeded get the keys and digests of their migrated rows,
    /// so a later seed of the new version still updates them; an object the user changed or
    /// deleted keeps its old key and digest (which no row of the new layout has): it stays the
    /// user's, or stays deleted. Objects of removed entities leave the record.
    ///
    /// Where at least half the record's rows move, the source record is parked and the
    /// destination's written into a fresh table in (entity, `Z_PK`) order, as the migration
    /// copies the model's rows: pages from the end of the file, which the journal need not save
    /// (`dropSourceRecord` drops the parked one). Where fewer move, they are taken out and put
    /// back, and the rest left where they are: moving rows within the table journals each
    /// page they leave.
    func rebase(in database: Database, destination: StoreLayout, buildKeys: [String: [String]]) throws(SQLiteError) {
        try SeedRecord.writeModel(destination.model, in: database)
        try SeedRecord.writeDigestRules(digestRules, in: database)
        // Where each entity's record rows go: under `number` (moves), nowhere else (staying), or
        // out of the record (dropped).
        var moves: [(number: Int, old: EntityLayout, fate: Fate)] = [], staying: [(number: Int, old: EntityLayout, fate: Fate)] = []
        var dropped: [Int] = []
        for (old, fate) in fates {
            switch fate {
            case .dropped: dropped.append(old.number)
            case .stays: staying.append((old.number, old, fate))
            case .rebased where digestedAfterCopy[old.number] != nil: staying.append((old.number, old, fate))
            case .renumbered(let number): moves.append((number, old, fate))
            case .rebased(let new, _): moves.append((new.number, old, fate))
            }
        }
        // Nothing to move when every entity's rows stay where they are: the record is not read again.
        guard !moves.isEmpty || !dropped.isEmpty else { return }
        let table = SeedRecord.table
        let rows = Dictionary(uniqueKeysWithValues: try database.rows("SELECT ENTITY, COUNT(*) FROM \(table) GROUP BY ENTITY").compactMap { row in
            row[0].integer.flatMap { entity in row[1].integer.map { (Int(entity), $0) } }
        })
        let moving = (moves.map(\.old.number) + dropped).reduce(0) { $0 + (rows[$1] ?? 0) }, all = rows.values.reduce(0, +)
        let rebuilds = moving * 2 >= all
        let (source, target) = rebuilds ? (Self.parkedTable, table) : (table, "temp.seedgen_rebased")
        if rebuilds {
            try database.execute("ALTER TABLE main.\(table) RENAME TO \(source); \(SeedRecord.createSQL)")
            moves += staying
        } else {
            try database.execute("CREATE TEMP TABLE seedgen_rebased (ENTITY INTEGER, PK INTEGER, KEY TEXT, DIGEST BLOB, PRIMARY KEY (ENTITY, PK)) WITHOUT ROWID")
        }
        let names = ObjectNames(layout: destination, buildKeys: buildKeys, contentByDigest: true)
        for (number, old, fate) in moves.sorted(by: { $0.number < $1.number }) {
            switch fate {
            case .rebased(let new, _) where digestedAfterCopy[old.number] == nil:
                guard let named = names.namedRows(of: new, identifiedIn: .init(table: "main.\(source)", entity: old.number)) else { continue }
                try database.execute("""
                    INSERT INTO \(target)
                    SELECT \(number), t.Z_PK, n.key, \(SeedRecord.digestSQL(of: new, in: destination, alias: "t"))
                    FROM (\(named)) n JOIN \(Database.quote(new.table)) t ON t.Z_PK = n.Z_PK
                    WHERE EXISTS (SELECT 1 FROM temp.seedgen_unchanged u WHERE u.ENTITY = \(old.number) AND u.PK = t.Z_PK)
                    ORDER BY t.Z_PK;
                    INSERT INTO \(target)
                    SELECT \(number), r.PK, r.KEY, r.DIGEST FROM \(source) r
                    WHERE r.ENTITY = \(old.number) AND NOT EXISTS (SELECT 1 FROM temp.seedgen_unchanged u WHERE u.ENTITY = r.ENTITY AND u.PK = r.PK);
                    """)
            default:
                try database.execute("INSERT INTO \(target) SELECT \(number), PK, KEY, DIGEST FROM \(source) WHERE ENTITY = \(old.number)")
            }
        }
        if !rebuilds {
            // No row taken in has the number of an entity that stays (the destination numbers each entity once).
            try database.execute("""
                DELETE FROM \(table) WHERE ENTITY NOT IN (\(staying.map { String($0.number) }.joined(separator: ", ")));
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
