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

    /// After a migration carried the rows over: the record in the destination's entity numbers.
    /// An entity carried keeps its rows as they are (renumbered where its number changed), as
    /// do those `digestAfterCopy` digested. For the others, the objects `markUnchanged` found as
    /// seeded get the keys and digests of their migrated rows, so a later seed of the new
    /// version still updates them; an object the user changed or deleted keeps its old key and
    /// digest (which no row of the new layout has): it stays the user's, or stays deleted.
    /// Objects of removed entities leave the record. The record of links goes (join tables may
    /// be folded, made or renamed): a later update adds links only, and records them.
    func rebase(in database: Database, destination: StoreLayout, buildKeys: [String: [String]]) throws(SQLiteError) {
        let table = SeedRecord.table
        try database.execute("DROP TABLE IF EXISTS main.\(SeedRecord.linksTable)")
        try SeedRecord.writeModel(destination.model, in: database)
        try SeedRecord.writeDigestRules(digestRules, in: database)
        // Nothing to move when every entity's rows stay where they are (carried, or digested
        // in place): the record is not read again.
        let moves = fates.contains { old, fate in
            switch fate {
            case .stays: false
            case .rebased: digestedAfterCopy[old.number] == nil
            case .renumbered, .dropped: true
            }
        }
        guard moves else { return }
        let names = ObjectNames(layout: destination, buildKeys: buildKeys, contentByDigest: true)
        try database.execute("CREATE TEMP TABLE seedgen_rebased (ENTITY INTEGER, PK INTEGER, KEY TEXT, DIGEST BLOB, PRIMARY KEY (ENTITY, PK)) WITHOUT ROWID")
        var staying: [Int] = []
        for (old, fate) in fates {
            switch fate {
            case .dropped:
                continue
            case .stays:
                staying.append(old.number)
            case .renumbered(let number):
                try database.execute("INSERT INTO temp.seedgen_rebased SELECT \(number), PK, KEY, DIGEST FROM \(table) WHERE ENTITY = \(old.number)")
            case .rebased where digestedAfterCopy[old.number] != nil:
                staying.append(old.number)
            case .rebased(let new, _):
                guard let named = names.namedRows(of: new, identifiedIn: .init(table: "main.\(table)", entity: old.number)) else { continue }
                try database.execute("""
                    INSERT INTO temp.seedgen_rebased
                    SELECT \(new.number), t.Z_PK, n.key, \(SeedRecord.digestSQL(of: new, in: destination, alias: "t"))
                    FROM (\(named)) n JOIN \(Database.quote(new.table)) t ON t.Z_PK = n.Z_PK
                    WHERE EXISTS (SELECT 1 FROM temp.seedgen_unchanged u WHERE u.ENTITY = \(old.number) AND u.PK = t.Z_PK);
                    INSERT INTO temp.seedgen_rebased
                    SELECT \(new.number), r.PK, r.KEY, r.DIGEST FROM \(table) r
                    WHERE r.ENTITY = \(old.number) AND NOT EXISTS (SELECT 1 FROM temp.seedgen_unchanged u WHERE u.ENTITY = r.ENTITY AND u.PK = r.PK);
                    """)
            }
        }
        // Rows of the entities that stay are left where they are; no row taken in has their
        // numbers (the destination numbers each entity once).
        try database.execute("""
            DELETE FROM \(table) WHERE ENTITY NOT IN (\(staying.map(String.init).joined(separator: ", ")));
            INSERT INTO \(table) SELECT * FROM temp.seedgen_rebased;
            DROP TABLE temp.seedgen_rebased; DROP TABLE IF EXISTS temp.seedgen_unchanged;
            """)
    }
}
