import SeedModel

extension SeedRecord {
    /// True when the store open on `database` holds a seed record (or the record's table `name`).
    static func isPresent(_ name: String = table, in database: Database) throws(SQLiteError) -> Bool {
        try database.scalar("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", [.text(name)]) != nil
    }

    /// Before a migration rebuilds the tables: notes which recorded objects still hold what the
    /// seed wrote (`temp.seedgen_unchanged`, in `source`'s numbering).
    static func markUnchanged(in database: Database, source: StoreLayout) throws(SQLiteError) {
        database.registerRowDigest()
        try database.execute("CREATE TEMP TABLE seedgen_unchanged (ENTITY INTEGER, PK INTEGER, PRIMARY KEY (ENTITY, PK)) WITHOUT ROWID")
        for entity in source.entities where !entity.isAbstract {
            try database.execute("""
                INSERT INTO temp.seedgen_unchanged SELECT r.ENTITY, r.PK FROM \(table) r
                JOIN \(Database.quote(entity.table)) t ON t.Z_PK = r.PK AND t.Z_ENT = r.ENTITY
                WHERE r.ENTITY = \(entity.number) AND r.DIGEST = \(digestSQL(of: entity, in: source, alias: "t"))
                """)
        }
    }

    /// After a migration carried the rows over: the record in the destination's entity numbers,
    /// with the keys and digests of the migrated rows for the objects `markUnchanged` found as
    /// seeded, so a later seed of the new version still updates them; an object the user had
    /// changed keeps its old key and digest (which no row of the new layout has), and stays
    /// the user's. Objects of removed entities leave the record. The record of links goes (join
    /// tables may be folded, made or renamed): a later update adds links only, and records them.
    static func rebase(in database: Database, plan: MigrationPlan, source: StoreLayout, destination: StoreLayout,
                       buildKeys: [String: [String]]) throws(SQLiteError) {
        let names = ObjectNames(layout: destination, buildKeys: buildKeys, contentByDigest: true)
        try database.execute("CREATE TEMP TABLE seedgen_rebased AS SELECT * FROM \(table) WHERE 0")
        for step in plan.entities {
            guard let sourceName = step.source, let old = source.entity(named: sourceName), let new = destination.entity(named: step.name),
                  !new.isAbstract,
                  let named = names.namedRows(of: new, identifiedIn: .init(table: "main.\(table)", entity: old.number)) else { continue }
            try database.execute("""
                INSERT INTO temp.seedgen_rebased
                SELECT \(new.number), t.Z_PK, n.key, \(digestSQL(of: new, in: destination, alias: "t"))
                FROM (\(named)) n JOIN \(Database.quote(new.table)) t ON t.Z_PK = n.Z_PK
                WHERE EXISTS (SELECT 1 FROM temp.seedgen_unchanged u WHERE u.ENTITY = \(old.number) AND u.PK = t.Z_PK);
                INSERT INTO temp.seedgen_rebased
                SELECT \(new.number), r.PK, r.KEY, r.DIGEST FROM \(table) r
                WHERE r.ENTITY = \(old.number) AND NOT EXISTS (SELECT 1 FROM temp.seedgen_unchanged u WHERE u.ENTITY = r.ENTITY AND u.PK = r.PK)
                  AND EXISTS (SELECT 1 FROM \(Database.quote(new.table)) t WHERE t.Z_PK = r.PK AND t.Z_ENT = \(new.number));
                """)
        }
        try database.execute("""
            DELETE FROM \(table);
            INSERT INTO \(table) SELECT * FROM temp.seedgen_rebased;
            DROP TABLE temp.seedgen_rebased; DROP TABLE temp.seedgen_unchanged;
            DROP TABLE IF EXISTS main.\(linksTable);
            """)
        try writeModel(destination.model, in: database)
    }
}
