import SeedModel

/// The record's digest rules (`DigestRule`), in the table `SEEDGEN_DIGESTED`: one row per
/// column an entity's rule names — `POSITION` its place in the digest, or NULL for an added
/// column that must hold `VALUE`; a digested column's `VALUE` is its place among the columns
/// the recorded names digest (`DigestRule.named`), or NULL. An entity without rows is
/// digested over its own layout. A
/// migration writes them (`RecordMigration`); an update settles them first (`settleDigests`),
/// so the rest of it, like every record a build writes, knows only its own layout's digests.
extension SeedRecord {
    /// The table's name.
    package static let rulesTable = "SEEDGEN_DIGESTED"

    /// The rules of the record of the store at `path`, open on `database`, by entity number,
    /// each checked against `layout` (the store's): a concrete entity of it, naming each of its
    /// digested columns once, in digest positions 0, 1, ... Throws `DamagedRecordError` otherwise.
    /// None when the record was written for another model than `layout`'s (`SEEDGEN_MODEL`'s
    /// entity hashes): something else migrated the store since (Core Data, in an app), and the
    /// rules say nothing of its rows — as the record's digests of the entities it changed no
    /// longer match, those objects look changed by the user, and stay as they are.
    package static func digestRules(in database: Database, layout: StoreLayout, path: String) throws -> [Int: DigestRule] {
        guard try isPresent(rulesTable, in: database), let recorded = try model(in: database, path: path),
              VersionHasher(model: recorded).entityHashes() == VersionHasher(model: layout.model).entityHashes() else { return [:] }
        // One row per digested column at most: a longer table is not read past that.
        let columns = layout.entities.filter { !$0.isAbstract }.reduce(0) { $0 + digestedColumns(of: $1, in: layout).count }
        let rows = try database.rows("SELECT ENTITY, COLUMN, POSITION, VALUE FROM main.\(rulesTable) ORDER BY ENTITY, POSITION, COLUMN LIMIT ?", [.integer(Int64(columns + 1))])
        guard rows.count <= columns else { throw DamagedRecordError(.digestRules, "more rows than the model's entities have digested columns (\(columns))") }
        var rules: [Int: DigestRule] = [:], names: [Int: [Int: String]] = [:]
        for row in rows {
            guard let number = row[0].integer, let column = row[1].text, let entity = layout.entity(number: Int(number)), !entity.isAbstract else {
                throw DamagedRecordError(.digestRules, "a row names no concrete entity of the model, or no column (\(row.map(\.description).joined(separator: ", ")))")
            }
            var rule = rules[entity.number] ?? DigestRule(digested: [], fixed: [])
            switch row[2] {
            case .null: rule.fixed.append(.init(column: column, value: row[3]))
            case .integer(let position) where position == rule.digested.count: rule.digested.append(column)
            default: throw DamagedRecordError(.digestRules, "\(entity.name).\(column) has digest position \(row[2]), not \(rule.digested.count)")
            }
            // A digested column's VALUE: its place among the columns the names digest, if any.
            switch (row[2], row[3]) {
            case (.null, _), (_, .null): break
            case (_, .integer(let place)): names[entity.number, default: [:]][Int(place)] = column
            default: throw DamagedRecordError(.digestRules, "\(entity.name).\(column) has the name place \(row[3]), not a number")
            }
            rules[entity.number] = rule
        }
        // Only digested columns carry a name place, so the names digest columns of the entity.
        for (number, places) in names {
            guard places.keys.sorted() == Array(0..<places.count) else {
                throw DamagedRecordError(.digestRules, "the name places of entity \(number) are \(places.keys.sorted()), not 0 to \(places.count - 1)")
            }
            rules[number]?.named = places.sorted { $0.key < $1.key }.map(\.value)
        }
        for entity in layout.entities {
            guard let rule = rules[entity.number] else { continue }
            guard rule.columns.sorted() == digestedColumns(of: entity, in: layout).sorted() else {
                throw DamagedRecordError(.digestRules, "the rule of \(entity.name) names the columns \(rule.columns.sorted().joined(separator: ", ")), not those of its table "
                                      + "(\(digestedColumns(of: entity, in: layout).sorted().joined(separator: ", ")))")
            }
        }
        return rules
    }

    /// Replaces the record's rules with `rules` (by entity number); with none, the table goes.
    package static func writeDigestRules(_ rules: [Int: DigestRule], in database: Database) throws(SQLiteError) {
        try database.execute("DROP TABLE IF EXISTS main.\(rulesTable)")
        guard !rules.isEmpty else { return }
        try database.execute("CREATE TABLE main.\(rulesTable) (ENTITY INTEGER, COLUMN TEXT, POSITION INTEGER, VALUE, PRIMARY KEY (ENTITY, COLUMN)) WITHOUT ROWID")
        let insert = try database.prepare("INSERT INTO main.\(rulesTable) VALUES (?, ?, ?, ?)")
        for (number, rule) in rules.sorted(by: { $0.key < $1.key }) {
            for (position, column) in rule.digested.enumerated() {
                let place = rule.named.firstIndex(of: column).map { SQLValue.integer(Int64($0)) } ?? .null
                try insert.bind([.integer(Int64(number)), .text(column), .integer(Int64(position)), place])
                try insert.run()
            }
            for fixed in rule.fixed {
                try insert.bind([.integer(Int64(number)), .text(fixed.column), .null, fixed.value])
                try insert.run()
            }
        }
    }

    /// Gives every object the record's rules cover that the user left as seeded the digest of
    /// its row in the store's own layout (`layout`) — and, named by its values, its row's name
    /// — in place, and drops the rules; what the user changed keeps its recorded digest, which
    /// its row does not give.
    ///
    /// With `seed` (the schema of an attached store of `layout` and the table of its record: the
    /// new seed of an update, whose record the update made from its rows), an object named by the values a rule's `named` columns held, which the
    /// user changed or deleted since, is first named as the new seed names the object whose
    /// values gave the same name (its number among equal objects the same): it stays the user's,
    /// or stays deleted, rather than coming again as the new seed's.
    package static func settleDigests(in database: Database, layout: StoreLayout, path: String, renamingFrom seed: (names: ObjectNames, record: String)? = nil) throws {
        guard try isPresent(rulesTable, in: database) else { return }
        let rules = try digestRules(in: database, layout: layout, path: path)
        database.registerRowDigest()
        for entity in layout.entities {
            guard let rule = rules[entity.number] else { continue }
            if let seed, !rule.named.isEmpty {
                try rename(entity, namedBy: rule.named, asNamedIn: seed, in: database)
            }
            try redigest(entity.number, recordedAs: rule, in: entity.table, to: entity, of: layout, in: database)
        }
        try writeDigestRules([:], in: database)
    }

    /// Each recorded object of `entity` whose name is the one an object of `seed` (a store of
    /// the same layout, and its record) would have by the values of its `named` columns gets
    /// that object's name in `seed`'s record. (Objects the user left as seeded are named from their
    /// rows afterwards, `redigest`; this reaches those whose values are gone.) A packed record
    /// carried through the migration knows such an object's name by its check alone (`x …`,
    /// `unpack`): it is renamed where the check is that of the name.
    private static func rename(_ entity: EntityLayout, namedBy named: [String], asNamedIn seed: (names: ObjectNames, record: String), in database: Database) throws(SQLiteError) {
        let oldNames = ObjectNames.numbered("""
            SELECT r.PK AS Z_PK, r.KEY AS NEW, \(ObjectNames.contentDigestKey(named, alias: "t"))\(seed.names.ownerWord(of: entity.name, alias: "t")) AS base
            FROM \(seed.record) r JOIN \(seed.names.schema).\(Database.quote(entity.table)) t ON t.Z_PK = r.PK AND t.Z_ENT = r.ENTITY
            WHERE r.ENTITY = \(entity.number) AND \(ObjectNames.namesByValues("r.KEY"))
            """, carrying: ["NEW"])
        try database.execute("""
            CREATE TEMP TABLE seedgen_renamed (OLD TEXT PRIMARY KEY, NEW TEXT) WITHOUT ROWID;
            INSERT OR IGNORE INTO temp.seedgen_renamed SELECT key, NEW FROM (\(oldNames));
            INSERT OR IGNORE INTO temp.seedgen_renamed SELECT '\(checkKeyPrefix)' || hex(\(keyCheckSQL("OLD"))), NEW FROM temp.seedgen_renamed;
            UPDATE main.\(table) SET KEY = (SELECT n.NEW FROM temp.seedgen_renamed n WHERE n.OLD = \(table).KEY)
            WHERE ENTITY = \(entity.number) AND (\(ObjectNames.namesByValues("KEY")) OR \(knownByCheck("KEY"))) AND KEY IN (SELECT OLD FROM temp.seedgen_renamed);
            DROP TABLE temp.seedgen_renamed;
            """)
    }

    /// Each object recorded under entity number `recorded` whose row in table `recordedTable`
    /// (its entity numbered `number` there) gives its recorded digest under `rule` gets the
    /// digest of its row in `current`'s table (of `layout`), in place, in one pass, and, when it
    /// is named by its values, the key that row gives it, its ordinal kept (a rule may have kept
    /// keys made of other values); the others keep theirs. Used when an update settles a rule
    /// (both rows the same) and when a migration digests a record again while the source table
    /// is still there.
    package static func redigest(_ recorded: Int, recordedAs rule: DigestRule, in recordedTable: String, numbered number: Int? = nil, to current: EntityLayout,
                         of layout: StoreLayout, in database: Database) throws(SQLiteError) {
        let digest = rule.sql(alias: "o")
        let key = ObjectNames.contentKeySQL(of: current, in: layout, alias: "t", ordinalOf: "\(table).KEY")
            .map { "CASE WHEN \(ObjectNames.namesByValues("\(table).KEY")) THEN \($0) ELSE \(table).KEY END" } ?? "\(table).KEY"
        try database.run("""
            UPDATE main.\(table) SET (DIGEST, KEY) = (
              SELECT \(digestSQL(of: current, in: layout, alias: "t")), \(key) FROM main.\(Database.quote(current.table)) AS t WHERE t.Z_PK = PK)
            WHERE ENTITY = \(recorded)
              AND DIGEST = (SELECT \(digest.sql) FROM main.\(Database.quote(recordedTable)) AS o WHERE o.Z_PK = PK AND o.Z_ENT = \(number ?? recorded))
            """, digest.arguments)
    }
}
