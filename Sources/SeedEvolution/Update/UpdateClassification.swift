import SeedModel
import SeedStore

/// The update's classification: the new seed's record made from its rows, each recorded
/// object's state found, and each object of the new seed given its fate (`SeedUpdater.Fate`)
/// and its `Z_PK` here (`UpdatePhase.recordSeed`, `.classify`).
struct UpdateClassification: UpdateConcept {
    let context: UpdateContext

    /// Fills `temp.seedgen_new_record` with the new seed's record, as an installed copy of it would
    /// hold it (`SeedRecord.recordRowsSQL`): each object's key and digest, named under the new
    /// seed's `buildKeys` and the identifiers it carries.
    func recordSeed(buildKeys: [String: [String]]) throws {
        database.registerRowDigest()
        // Memory within a build's (60 MiB at 1M objects; flat in their number): the new objects'
        // to-ones are looked up in `seedgen_new_objects` at random, so TEMP gets 11 MiB (with SQLite's
        // 2 MB, a 1M-object update spent a quarter of its time reading those pages back; 12 MiB
        // of 4 KiB pages served as well as 11 of the 64 KiB ones `durableWriter` gives TEMP, 11
        // keeps the peak where 12 of 4 KiB had it, and 10 gave 59 MiB but medians of 12.0 s
        // against 12's 11.4 s, 3 runs each: within this host's noise, not taken); the
        // store is read in order and written in 1% of its rows, so 4 MiB serve it — and SQLite
        // sizes its sorters (the TEMP indexes, the window that numbers new rows) by main's cache:
        // the writer's 32 MiB for both took the update to 115 MiB, no faster. The sorts take the
        // second core (`threads`): a 1M-object update 1.5 s faster, its peak 51 to 60 MiB (the
        // build's 61).
        try database.execute("PRAGMA temp.cache_size = -11264; PRAGMA main.cache_size = -4096; PRAGMA threads = 2")
        try Scratch.createNewRecord(in: database)
        let seedNames = context.seedNames(buildKeys: buildKeys)
        let identifiers = try SeedRecord.identifierSource(in: database, schema: "seed")
        for entity in concreteEntities {
            guard let rows = SeedRecord.recordRowsSQL(of: entity, names: seedNames, identifiers: identifiers) else { continue }
            try database.execute("INSERT INTO temp.\(Scratch.newRecord) (\(SeedRecord.recordRowsColumns)) \(rows)")
        }
    }

    /// Fills `seedgen_recorded` and `seedgen_new_objects`, numbering the objects to insert after `Z_MAX`.
    func classify() throws {
        database.registerRowDigest()
        try Scratch.createClassification(in: database)
        for entity in concreteEntities {
            // Objects without a key are named by digests (or identifiers) in no order of their rows:
            // sorted first, they go into the state's key order as appends rather than inserts at
            // random places (200k events 1% apart: 6.5-7.1 s to 5.9-6.4 s, alternating).
            let order = names.naming(of: entity.name)?.keyAttributes.isEmpty == true ? " ORDER BY r.KEY" : ""
            do {
                try database.execute("""
                    INSERT INTO temp.\(Scratch.recorded) SELECT r.ENTITY, r.PK, r.KEY, r.DIGEST,
                      CASE WHEN t.Z_PK IS NULL THEN NULL\(context.recordDigestsAreCurrent ? " WHEN NOT \(SeedRecord.knownInPart("r.DIGEST")) THEN r.DIGEST" : "")
                           ELSE \(SeedRecord.digestSQL(of: entity, in: store, alias: "t")) END
                    FROM main.\(SeedRecord.table) r LEFT JOIN main.\(table(entity)) t ON t.Z_PK = r.PK AND t.Z_ENT = r.ENTITY
                    WHERE r.ENTITY = \(entity.number)\(order)
                    """)
            } catch {
                guard error.code.primary == .constraint else { throw error }
                // Two recorded objects of the entity under one key: which one the key names
                // cannot be told (a build never records a key twice).
                let twice = try database.rows("""
                    SELECT MIN(PK), MAX(PK) FROM main.\(SeedRecord.table) WHERE ENTITY = ? AND KEY IS NOT NULL GROUP BY KEY HAVING COUNT(*) > 1 LIMIT 1
                    """, [.integer(Int64(entity.number))]).first
                if let twice {
                    throw DamagedRecordError(.objects, "two \(entity.name) objects (Z_PK \(twice[0].integer ?? 0) and \(twice[1].integer ?? 0)) are recorded under one key")
                }
                // Or one recorded with no key at all, or with a digest that is none.
                let keyless = try database.scalar("SELECT PK FROM main.\(SeedRecord.table) WHERE ENTITY = ? AND KEY IS NULL LIMIT 1", [.integer(Int64(entity.number))])
                if let keyless { throw DamagedRecordError(.objects, "\(entity.name) #\(keyless.integer ?? 0) is recorded with no key") }
                let digest = try database.rows("""
                    SELECT PK, typeof(DIGEST), length(DIGEST) FROM main.\(SeedRecord.table)
                    WHERE ENTITY = ? AND (typeof(DIGEST) IS NOT 'blob' OR length(DIGEST) IS NOT \(Database.rowDigestLength)) LIMIT 1
                    """, [.integer(Int64(entity.number))]).first
                if let digest {
                    let found = digest[1].text == "blob" ? "\(digest[2].integer ?? 0) bytes" : digest[1].text ?? "nothing"
                    throw DamagedRecordError(.objects, "\(entity.name) #\(digest[0].integer ?? 0) is recorded with a digest of \(found), not \(Database.rowDigestLength) bytes")
                }
                throw DamagedRecordError(.objects, "the record of \(entity.name) objects breaks a constraint: \(error.message)")
            }
        }
        // Looked up by key (its primary key) wherever a plan depends on it: SQLite has no
        // statistics on TEMP tables, and chose a scan per row over an index that did not cover.
        for entity in concreteEntities {
            try database.execute("""
                INSERT INTO temp.\(Scratch.newObjects) SELECT \(tableNumber(entity.table)), n.PK, n.ENTITY, n.KEY,
                  CASE WHEN s.CURRENT_DIGEST IS NULL THEN NULL ELSE s.PK END,
                  CASE WHEN s.PK IS NULL THEN \(Fate.add.sql) WHEN s.CURRENT_DIGEST IS NULL THEN \(Fate.deleted.sql)
                       WHEN s.CURRENT_DIGEST = s.SEEDED_DIGEST THEN \(Fate.seeded.sql) ELSE \(Fate.user.sql) END,
                  n.DIGEST, s.SEEDED_DIGEST, s.PK
                FROM temp.\(Scratch.newRecord) n LEFT JOIN temp.\(Scratch.recorded) s ON s.ENTITY = n.ENTITY AND s.KEY = n.KEY
                WHERE n.ENTITY = \(entity.number)
                """)
        }
        try database.execute("CREATE INDEX temp.seedgen_new_objects_by_key ON \(Scratch.newObjects) (ENTITY, KEY)")
        // By the store's Z_PK only where a later step looks objects up so: many-to-many links
        // and places in ordered to-manys (a sort of every object, a second a million).
        if !store.joinTables.isEmpty || store.tables.contains(where: { $0.columns.contains { if case .foreignOrder = $0.role { true } else { false } } }) {
            try database.execute("CREATE INDEX temp.seedgen_new_objects_by_store_pk ON \(Scratch.newObjects) (TABLE_NUMBER, STORE_PK)")
        }
        // A user's object (not in the record) named like an object to add takes its place. Only
        // where the user made objects of the entity: its rows outnumber the recorded ones still
        // there (naming every row to find none took a 1M-object update 3 s).
        for entity in concreteEntities {
            let number: [SQLValue] = [.integer(Int64(entity.number))]
            guard try database.scalar("SELECT 1 FROM temp.\(Scratch.newObjects) WHERE ENTITY = ? AND FATE = \(Fate.add.sql) LIMIT 1", number) != nil,
                  try database.scalar("SELECT COUNT(*) FROM main.\(table(entity)) WHERE Z_ENT = ?", number)
                    != database.scalar("SELECT COUNT(*) FROM temp.\(Scratch.recorded) WHERE ENTITY = ? AND CURRENT_DIGEST IS NOT NULL", number),
                  let named = names.namedRows(of: entity, onlyWhere: "NOT EXISTS (SELECT 1 FROM main.\(SeedRecord.table) r WHERE r.ENTITY = \(entity.number) AND r.PK = Z_PK)")
            else { continue }
            try database.execute("""
                CREATE TEMP TABLE \(Scratch.userObjects) AS SELECT x.key AS KEY, x.Z_PK AS PK FROM (\(named)) x;
                CREATE INDEX temp.seedgen_user_objects_by_key ON \(Scratch.userObjects) (KEY);
                UPDATE temp.\(Scratch.newObjects) SET FATE = \(Fate.clash.sql), STORE_PK = (SELECT u.PK FROM temp.\(Scratch.userObjects) u WHERE u.KEY = \(Scratch.newObjects).KEY)
                  WHERE ENTITY = \(entity.number) AND FATE = \(Fate.add.sql) AND EXISTS (SELECT 1 FROM temp.\(Scratch.userObjects) u WHERE u.KEY = \(Scratch.newObjects).KEY);
                DROP TABLE temp.\(Scratch.userObjects);
                """)
        }
        try markOwnerDeleted()
        // New objects take the store's next Z_PKs, table by table in the new seed's order.
        for table in store.tables {
            let base = try database.numberingBase(of: table, in: store)
            try database.execute("""
                INSERT OR REPLACE INTO temp.\(Scratch.newObjects)
                SELECT TABLE_NUMBER, SEED_PK, ENTITY, KEY, \(base) + ROW_NUMBER() OVER (ORDER BY SEED_PK), FATE, SEED_DIGEST, RECORDED_DIGEST, RECORDED_PK FROM temp.\(Scratch.newObjects)
                WHERE TABLE_NUMBER = \(tableNumber(table.name)) AND FATE = \(Fate.add.sql)
                """)
        }
    }
}
