import SeedModel
import SeedStore

/// The SQL of one update, on the store's connection (`main`) with the new seed attached
/// (`seed`), through TEMP tables: `seedgen_state` (each recorded object: its key, the digest
/// its seed recorded and the one its row has now, NULL when the user deleted it) and
/// `seedgen_map` (each object of the new seed: its `Z_PK` there and here — none here for
/// one the user deleted, so nothing the update writes points at it — its `Fate`, the
/// digest the new seed records for it and the one the store's record holds), and after the
/// changes are found `seedgen_touched`: the rows of `seedgen_map` other than the seeded ones
/// left as they are (a few in a seed update), which the later steps read instead.
/// Both seeds share the model and its layout; so do their entity numbers.
struct UpdateStep {
    typealias Fate = SeedUpdater.Fate

    let database: Database
    let store: StoreLayout
    let names: ObjectNames
    /// Whether the record was unpacked in this transaction (`SeedRecord.unpack`): its full
    /// digests are then its objects' rows' digests as they are, which `classify` takes rather
    /// than digesting every row again.
    var recordDigestsAreCurrent = false

    var concreteEntities: [EntityLayout] { store.entities.filter { !$0.isAbstract } }

    func table(_ entity: EntityLayout) -> String { Database.quote(entity.table) }
    func tableNumber(_ name: String) -> Int { names.tableNumbers[name]! }

    /// How the new seed's objects are named under its `buildKeys`: as the store's record names
    /// them (within their owners, or not).
    func seedNames(buildKeys: [String: [String]]) -> ObjectNames {
        ObjectNames(layout: store, buildKeys: buildKeys, contentByDigest: true, schema: "seed", namedWithoutOwner: names.namedWithoutOwner)
    }

    /// Fills `temp.seedgen_seeded` with the new seed's record, as an installed copy of it would
    /// hold it (`SeedRecord.recordRowsSQL`): each object's key and digest, named under the new
    /// seed's `buildKeys` and the identifiers it carries.
    func recordSeed(buildKeys: [String: [String]]) throws {
        database.registerRowDigest()
        // Memory within a build's (60 MiB at 1M objects; flat in their number): the new objects'
        // to-ones are looked up in `seedgen_map` at random, so TEMP gets 11 MiB (with SQLite's
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
        try database.execute("CREATE TEMP TABLE seedgen_seeded (ENTITY INTEGER, PK INTEGER, KEY TEXT, DIGEST BLOB, PRIMARY KEY (ENTITY, PK)) WITHOUT ROWID")
        let seedNames = seedNames(buildKeys: buildKeys)
        let identifiers = try SeedRecord.identifierSource(in: database, schema: "seed")
        for entity in concreteEntities {
            guard let rows = SeedRecord.recordRowsSQL(of: entity, names: seedNames, identifiers: identifiers) else { continue }
            try database.execute("INSERT INTO temp.seedgen_seeded (\(SeedRecord.recordRowsColumns)) \(rows)")
        }
    }

    /// Fills `seedgen_state` and `seedgen_map`, numbering the objects to insert after `Z_MAX`.
    func classify() throws {
        database.registerRowDigest()
        try database.execute("""
            CREATE TEMP TABLE seedgen_state (ENTITY INTEGER, PK INTEGER, KEY TEXT, SEEDED BLOB CHECK (typeof(SEEDED) = 'blob' AND length(SEEDED) = \(Database.rowDigestLength)),
              NOW BLOB, PRIMARY KEY (ENTITY, KEY)) WITHOUT ROWID;
            CREATE TEMP TABLE seedgen_map (TBL INTEGER, NPK INTEGER, ENTITY INTEGER, KEY TEXT, SPK INTEGER, FATE TEXT,
              NDIGEST BLOB, SDIGEST BLOB, RPK INTEGER, PRIMARY KEY (TBL, NPK)) WITHOUT ROWID;
            """)
        for entity in concreteEntities {
            // Objects without a key are named by digests (or identifiers) in no order of their rows:
            // sorted first, they go into the state's key order as appends rather than inserts at
            // random places (200k events 1% apart: 6.5-7.1 s to 5.9-6.4 s, alternating).
            let order = names.naming(of: entity.name)?.keyAttributes.isEmpty == true ? " ORDER BY r.KEY" : ""
            do {
                try database.execute("""
                    INSERT INTO temp.seedgen_state SELECT r.ENTITY, r.PK, r.KEY, r.DIGEST,
                      CASE WHEN t.Z_PK IS NULL THEN NULL\(recordDigestsAreCurrent ? " WHEN NOT \(SeedRecord.knownInPart("r.DIGEST")) THEN r.DIGEST" : "")
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
                INSERT INTO temp.seedgen_map SELECT \(tableNumber(entity.table)), n.PK, n.ENTITY, n.KEY,
                  CASE WHEN s.NOW IS NULL THEN NULL ELSE s.PK END,
                  CASE WHEN s.PK IS NULL THEN \(Fate.add.sql) WHEN s.NOW IS NULL THEN \(Fate.deleted.sql)
                       WHEN s.NOW = s.SEEDED THEN \(Fate.seeded.sql) ELSE \(Fate.user.sql) END,
                  n.DIGEST, s.SEEDED, s.PK
                FROM temp.seedgen_seeded n LEFT JOIN temp.seedgen_state s ON s.ENTITY = n.ENTITY AND s.KEY = n.KEY
                WHERE n.ENTITY = \(entity.number)
                """)
        }
        try database.execute("CREATE INDEX temp.seedgen_map_by_key ON seedgen_map (ENTITY, KEY)")
        // By the store's Z_PK only where a later step looks objects up so: many-to-many links
        // and places in ordered to-manys (a sort of every object, a second a million).
        if !store.joinTables.isEmpty || store.tables.contains(where: { $0.columns.contains { if case .foreignOrder = $0.role { true } else { false } } }) {
            try database.execute("CREATE INDEX temp.seedgen_map_by_store ON seedgen_map (TBL, SPK)")
        }
        // A user's object (not in the record) named like an object to add takes its place. Only
        // where the user made objects of the entity: its rows outnumber the recorded ones still
        // there (naming every row to find none took a 1M-object update 3 s).
        for entity in concreteEntities {
            let number: [SQLValue] = [.integer(Int64(entity.number))]
            guard try database.scalar("SELECT 1 FROM temp.seedgen_map WHERE ENTITY = ? AND FATE = \(Fate.add.sql) LIMIT 1", number) != nil,
                  try database.scalar("SELECT COUNT(*) FROM main.\(table(entity)) WHERE Z_ENT = ?", number)
                    != database.scalar("SELECT COUNT(*) FROM temp.seedgen_state WHERE ENTITY = ? AND NOW IS NOT NULL", number),
                  let named = names.namedRows(of: entity, onlyWhere: "NOT EXISTS (SELECT 1 FROM main.\(SeedRecord.table) r WHERE r.ENTITY = \(entity.number) AND r.PK = Z_PK)")
            else { continue }
            try database.execute("""
                CREATE TEMP TABLE seedgen_user AS SELECT x.key AS KEY, x.Z_PK AS PK FROM (\(named)) x;
                CREATE INDEX temp.seedgen_user_by_key ON seedgen_user (KEY);
                UPDATE temp.seedgen_map SET FATE = \(Fate.clash.sql), SPK = (SELECT u.PK FROM temp.seedgen_user u WHERE u.KEY = seedgen_map.KEY)
                  WHERE ENTITY = \(entity.number) AND FATE = \(Fate.add.sql) AND EXISTS (SELECT 1 FROM temp.seedgen_user u WHERE u.KEY = seedgen_map.KEY);
                DROP TABLE temp.seedgen_user;
                """)
        }
        try markOwnerDeleted()
        // New objects take the store's next Z_PKs, table by table in the new seed's order.
        for table in store.tables {
            let base = try database.numberingBase(of: table, in: store)
            try database.execute("""
                INSERT OR REPLACE INTO temp.seedgen_map
                SELECT TBL, NPK, ENTITY, KEY, \(base) + ROW_NUMBER() OVER (ORDER BY NPK), FATE, NDIGEST, SDIGEST, RPK FROM temp.seedgen_map
                WHERE TBL = \(tableNumber(table.name)) AND FATE = \(Fate.add.sql)
                """)
        }
    }

    /// The new seed's row `alias` of `entity` as this store would hold it: each column (with
    /// `positions`, its places in ordered to-manys too), a to-one's destination `Z_PK` carried
    /// into the store's numbering (NULL when the user deleted the destination).
    /// With `asRecorded`, a to-one to an object the user deleted keeps the number the record
    /// gives it (to tell whether the seed changed the row), instead of none (what is written).
    func carried(_ entity: EntityLayout, alias: String, positions: Bool = true, asRecorded: Bool = false) -> [(column: String, value: String)] {
        SeedRecord.columns(of: entity, in: store, positions: positions).map { column in
            let value = "\(alias).\(Database.quote(column.name))"
            guard let destination = column.referencedEntity, let target = store.entity(named: destination) else {
                return (column.name, value)
            }
            let number = asRecorded ? "IFNULL(m.SPK, m.RPK)" : "m.SPK"
            return (column.name, "(SELECT \(number) FROM temp.seedgen_map m WHERE m.TBL = \(tableNumber(target.table)) AND m.NPK = \(value))")
        }
    }

    /// `seedgen_digest` of the new seed's row `alias` as the record would hold it: comparable
    /// with the record's digests (an object the user deleted by the number it had).
    func carriedDigest(_ entity: EntityLayout, alias: String) -> String {
        Database.rowDigestSQL(carried(entity, alias: alias, positions: false, asRecorded: true).map(\.value))
    }

    /// `carriedDigest` for a statement over many rows: each to-one's number is looked up in its
    /// table's `recordedNumbersTable` (`makeRecordedNumbers`) through a `LEFT JOIN` of its own,
    /// `joins`, which the statement puts after `alias` (its cursors are opened once, not once a
    /// row and column as a subquery's are).
    func recordedDigest(_ entity: EntityLayout, alias: String) -> (digest: String, joins: String) {
        var joins = ""
        let values = SeedRecord.columns(of: entity, in: store, positions: false).enumerated().map { index, column in
            let value = "\(alias).\(Database.quote(column.name))"
            guard let destination = column.referencedEntity, let target = store.entity(named: destination) else { return value }
            joins += " LEFT JOIN temp.\(Self.recordedNumbersTable(tableNumber(target.table))) r\(index) ON r\(index).NPK = \(value)"
            return "r\(index).PK"
        }
        return (Database.rowDigestSQL(values), joins)
    }

    /// The TEMP table of the numbers the record knows the objects of the table numbered `table`
    /// by, keyed by their `Z_PK` in the new seed (`makeRecordedNumbers`).
    static func recordedNumbersTable(_ table: Int) -> String { "seedgen_recorded_\(table)" }

    /// Makes, for each table numbered in `tables`, its `recordedNumbersTable`: a rowid table of
    /// its objects alone, where a lookup per row of a million-row entity is cheaper than in
    /// `seedgen_map`, which holds every table's objects.
    func makeRecordedNumbers(_ tables: Set<Int>) throws {
        for table in tables.sorted() {
            let name = Self.recordedNumbersTable(table)
            try database.execute("""
                CREATE TEMP TABLE \(name) (NPK INTEGER PRIMARY KEY, PK INTEGER);
                INSERT INTO temp.\(name) SELECT NPK, IFNULL(SPK, RPK) FROM temp.seedgen_map WHERE TBL = \(table) ORDER BY NPK;
                """)
        }
    }
}
