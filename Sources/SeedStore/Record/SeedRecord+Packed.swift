import SeedModel

/// The record as an install writes it, or a seed built with `--updatable` carries it (so that its
/// install is a copy): packed, ten bytes an object, so that a store installed to be updated is
/// within a tenth of its seed's size (the record's full form, a key as text and a 16-byte digest
/// in a table row, took the 1M-product catalog's store from 110 to 177 MB).
///
/// The table `SEEDGEN_PACKED` holds runs of objects of one entity with consecutive `Z_PK`s:
/// `(ENTITY, FIRSTPK, ENTRIES)`, each entry `ENTRIES[10 i ..< 10 i + 10]` the object
/// `FIRSTPK + i`: the first 5 bytes of its row's digest (`digestSQL`) as the seed wrote it, then
/// the first 5 bytes of `seedgen_digest(key)`, its key's check. The key itself is not kept: where
/// the object's row still names it by a key of that check, that is its key; where it does not
/// (the user changed what names it, or deleted it, or a sibling equal to it), the key is known
/// only by its check (`x ` and the check in hexadecimal) until an update finds, among the new
/// seed's keys, the one of that check (`resolveKeysKnownByCheck`).
///
/// The first update of the store unpacks it into the full record (`unpack`), inside its
/// transaction, and goes on with that: the two agree on every object whose check or digest does
/// not collide in 40 bits (an edit the 5 bytes miss: one in 10^12). So does the first migration
/// that digests or names an entity's objects again; one that keeps every entity's record rows
/// (renames, added attributes with one value for every row, new entity numbers) keeps the record
/// packed, writing its digest rules and entity numbers beside it, which unpacking follows.
extension SeedRecord {
    /// The packed record's table.
    package static let packedTable = "SEEDGEN_PACKED"
    /// Its definition: one row a run of at most `packedRun` objects.
    static let createPackedSQL = "CREATE TABLE main.SEEDGEN_PACKED (ENTITY INTEGER, FIRSTPK INTEGER, ENTRIES BLOB)"
    /// The bytes an object takes: digest prefix, then key check.
    package static let packedEntryLength = 10
    /// The bytes of the digest prefix and of the key check each.
    static let packedPartLength = 5
    /// The most objects one row holds (650 KB).
    static let packedRun = 65_536
    /// The prefix of a key known only by its check.
    package static let checkKeyPrefix = "x "

    /// SQL that the key `key` is known only by its check (`x …`).
    package static func knownByCheck(_ key: String) -> String {
        "substr(\(key), 1, 2) = '\(checkKeyPrefix)'"
    }

    /// SQL for the check of the key `key`: the first 5 bytes of its digest.
    static func keyCheckSQL(_ key: String) -> String {
        "substr(seedgen_digest(\(key)), 1, \(packedPartLength))"
    }

    /// SQL that the record knows the digest `seeded` only in part: its first 5 bytes, then
    /// zeros (an unpacked record's object that the user changed or deleted).
    package static func knownInPart(_ seeded: String) -> String {
        "substr(\(seeded), \(packedPartLength + 1)) = zeroblob(\(Database.rowDigestLength - packedPartLength))"
    }

    /// SQL that the digest `digest` of a row differs from `seeded`, a digest the record keeps:
    /// where the record knows only its first 5 bytes (`knownInPart`), only those are compared.
    package static func differsFromSeededSQL(_ digest: String, seeded: String) -> String {
        """
        (\(digest) IS NOT \(seeded) AND NOT (\(knownInPart(seeded)) AND substr(\(digest), 1, \(packedPartLength)) = substr(\(seeded), 1, \(packedPartLength))))
        """
    }

    /// Writes the packed record of every object of `layout` in the store open on `database`, and
    /// its links, named under `buildKeys` or by the identifiers the seed carries (whose table
    /// stays: unpacking names the objects again).
    package static func pack(in database: Database, layout: StoreLayout, buildKeys: [String: [String]]) throws(SQLiteError) {
        database.registerRowDigest()
        let identifiers = try identifierSource(in: database)
        try database.execute(createPackedSQL)
        let insert = try database.prepare("INSERT INTO main.\(packedTable) (ENTITY, FIRSTPK, ENTRIES) VALUES (?, ?, ?)")
        let names = ObjectNames(layout: layout, buildKeys: buildKeys, contentByDigest: true)
        for entity in layout.entities where !entity.isAbstract {
            guard let rows = recordRowsSQL(of: entity, names: names, identifiers: identifiers) else { continue }
            // Two blobs, joined here: SQL's || makes text.
            let entries = try database.prepare("SELECT Z_PK, substr(DIGEST, 1, \(packedPartLength)), \(keyCheckSQL("key")) FROM (\(rows))")
            var run: (first: Int64, bytes: [UInt8]) = (0, [])
            func flush() throws(SQLiteError) {
                guard !run.bytes.isEmpty else { return }
                try insert.bind([.integer(Int64(entity.number)), .integer(run.first), .blob(run.bytes)])
                try insert.run()
                run.bytes.removeAll(keepingCapacity: true)
            }
            while try entries.step() {
                guard case .integer(let primaryKey) = entries.value(at: 0), case .blob(let digest) = entries.value(at: 1), case .blob(let check) = entries.value(at: 2),
                      digest.count == packedPartLength, check.count == packedPartLength else {
                    throw SQLiteError(code: .mismatch, message: "\(entity.name) #\(entries.value(at: 0)): a record row without a digest or a key")
                }
                let count = Int64(run.bytes.count / packedEntryLength)
                if run.bytes.isEmpty || primaryKey != run.first + count || count == Int64(packedRun) {
                    try flush()
                    run.first = primaryKey
                }
                run.bytes += digest
                run.bytes += check
            }
            try flush()
        }
        try writeLinks(in: database, layout: layout)
    }

    /// True when the store open on `database` holds its seed's record packed.
    package static func isPacked(in database: Database) throws(SQLiteError) -> Bool {
        try isPresent(packedTable, in: database)
    }

    /// True when the store open on `database` records its seed, packed or in full.
    package static func hasRecord(in database: Database) throws(SQLiteError) -> Bool {
        if try isPresent(in: database) { return true }
        return try isPacked(in: database)
    }

    /// Unpacks the packed record of the store open on `database` (at `path`, for messages) into
    /// the full one, inside the caller's transaction; false when the record is not packed. Each
    /// object's key is the one its row names it by where that key has the recorded check, else
    /// known by the check alone (`x …`); its digest is its row's where the first 5 bytes agree
    /// (the object is as seeded), else those 5 bytes and zeros (`differsFromSeededSQL`). The
    /// layout is the model the store carries, as the install read it.
    ///
    /// A migration may have carried the record packed (`RecordMigration`): its rows then stay
    /// under the numbers they are recorded under (`RecordNumbers`), and each object is digested
    /// and named as its entity's rule says (`DigestRule`, checked against the row as it is now),
    /// as a migrated full record holds them; the update settles both.
    ///
    /// Throws `DamagedRecordError` when the packed rows are not whole entries, hold an object
    /// twice or one of no entity of the model.
    package static func unpack(in database: Database, path: String) throws -> Bool {
        guard try isPacked(in: database) else { return false }
        guard let bytes = try database.metadataRow()?.plist else { throw DamagedRecordError(.packedObjects, "no metadata row in Z_METADATA") }
        let metadata = try StoreMetadata(decoding: bytes)
        guard let model = try model(in: database, path: path) else {
            throw DamagedRecordError(.packedObjects, "the record is packed, but the store carries no model (\(modelTable)) to read it by")
        }
        let layout = try installedLayout(of: StoreLayout(model: model), in: database, path: path, metadata: metadata)
        let numbers = try RecordNumbers(in: database, layout: layout), rules = try digestRules(in: database, layout: layout, path: path)
        database.registerRowDigest()
        let identifiers = try identifierSource(in: database)
        // Each concrete entity with the number its rows are recorded under, in the record's order.
        let recordedEntities = layout.entities.filter { !$0.isAbstract }.compactMap { entity in numbers.recorded(entity.number).map { (entity, $0) } }.sorted { $0.1 < $1.1 }
        let recorded = recordedEntities.map { String($0.1) }.joined(separator: ", ")
        if let stray = try database.scalar("SELECT ENTITY FROM main.\(packedTable) WHERE ENTITY NOT IN (\(recorded.isEmpty ? "NULL" : recorded)) LIMIT 1") {
            throw DamagedRecordError(.packedObjects, "objects are packed under entity \(stray.integer ?? 0), which the model has not")
        }
        // The store is read once, in order, and the record appended: a small cache serves (the
        // writer's 32 MiB took an update's peak from 58 to 93 MiB).
        let cache = try database.scalar("PRAGMA main.cache_size") ?? .integer(-4096)
        try database.execute("PRAGMA main.cache_size = -4096")
        defer { try? database.execute("PRAGMA main.cache_size = \(cache.integer ?? -4096)") }
        try database.execute(createSQL)
        let names = ObjectNames(layout: layout, buildKeys: metadata.buildKeys, contentByDigest: true)
        let placeholder = try database.prepare("INSERT INTO main.\(table) (ENTITY, PK, KEY, DIGEST) VALUES (?, ?, ?, ?)")
        for (entity, number) in recordedEntities {
            var runs: [(first: Int64, bytes: [UInt8])] = []
            for row in try database.rows("SELECT FIRSTPK, ENTRIES FROM main.\(packedTable) WHERE ENTITY = ?", [.integer(Int64(number))]) {
                guard case .integer(let first) = row[0], case .blob(let bytes) = row[1], !bytes.isEmpty, bytes.count % packedEntryLength == 0 else {
                    throw DamagedRecordError(.packedObjects, "a run of \(entity.name) objects is not whole entries of \(packedEntryLength) bytes")
                }
                runs.append((first, bytes))
            }
            let rule = rules[entity.number]
            guard !runs.isEmpty, let rows = recordRowsSQL(of: entity, names: names, identifiers: identifiers, rule: rule, recordedAs: number) else { continue }
            guard let entries = PackedEntries(runs: runs) else {
                throw DamagedRecordError(.packedObjects, "a \(entity.name) object is packed twice")
            }
            // Each object the store still holds, named and digested from its row in one pass.
            database.registerPackedEntries(entries)
            defer { database.unregisterPackedEntries() }
            try database.run("""
                INSERT INTO main.\(table) (ENTITY, PK, KEY, DIGEST)
                SELECT \(number), Z_PK, seedgen_packed_key(Z_PK, key, \(keyCheckSQL("key"))), seedgen_packed_digest(Z_PK, DIGEST)
                FROM (\(rows)) WHERE seedgen_packed_holds(Z_PK)
                """, rule?.sql(alias: "t").arguments ?? [])
            // Those the user deleted: known by their digest's and key's first bytes alone.
            for (primaryKey, key, digest) in entries.unseen() {
                try placeholder.bind([.integer(Int64(number)), .integer(primaryKey), .text(key), .blob(digest)])
                try placeholder.run()
            }
        }
        try database.execute("DROP TABLE main.\(packedTable)")
        if try isPresent(identifiersTable, in: database) { try database.execute("DROP TABLE main.\(identifiersTable)") }
        return true
    }

    /// Gives each recorded object known only by its key's check (`x …`, left by `unpack`) the
    /// key of the one object of the new seed's record `seeded` (a table of `ENTITY, KEY` rows
    /// under the store's entity numbers) whose key has that check: the key it was seeded under.
    /// Where no key of the new seed has it, the object's key is none the new seed gives, and it
    /// stays known by its check; so does it where two have it (one in 10^12 at a million keys).
    package static func resolveKeysKnownByCheck(in database: Database, seeded: String) throws(SQLiteError) {
        guard try database.scalar("SELECT 1 FROM main.\(table) WHERE \(knownByCheck("KEY")) LIMIT 1") != nil else { return }
        database.registerRowDigest()
        try database.execute("""
            CREATE TEMP TABLE seedgen_checked AS SELECT n.ENTITY, n.KEY, '\(checkKeyPrefix)' || hex(\(keyCheckSQL("n.KEY"))) AS CHECKED FROM \(seeded) n
              WHERE n.ENTITY IN (SELECT DISTINCT ENTITY FROM main.\(table) WHERE \(knownByCheck("KEY")));
            CREATE INDEX temp.seedgen_checked_by_check ON seedgen_checked (ENTITY, CHECKED);
            UPDATE main.\(table) SET KEY = (SELECT c.KEY FROM temp.seedgen_checked c WHERE c.ENTITY = \(table).ENTITY AND c.CHECKED = \(table).KEY)
              WHERE \(knownByCheck("KEY")) AND (SELECT COUNT(*) FROM temp.seedgen_checked c WHERE c.ENTITY = \(table).ENTITY AND c.CHECKED = \(table).KEY) = 1;
            DROP TABLE temp.seedgen_checked;
            """)
    }
}
