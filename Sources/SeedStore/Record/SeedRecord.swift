import SeedModel

/// What an installed store records of the seed it was installed from, so that a later seed can
/// update it without touching what the user changed: the table `SEEDGEN_SEEDED`, one row per
/// object — its entity number and `Z_PK`, the key that names it (`ObjectNames`: the build's key
/// or the model's uniqueness constraint, else the source identifier the build gave it, else a
/// digest of its values) and a 16-byte digest of its row as the seed wrote it (`seedgen_digest`
/// over every column of its entity but `Z_PK`, `Z_ENT`, `Z_OPT` and its positions in ordered
/// to-manys) — and its many-to-many links (`SEEDGEN_LINKED`).
///
/// A seed does not carry the record unless built with `--updatable`: it is a function of the
/// seed's rows, so it is written where it is needed — packed, ten bytes an object, into the
/// installed copy when the installer's policy is `update` (`pack`, before the copy is put in
/// place; the first update or migration unpacks it into this table, `unpack`), or into the seed
/// at its build (then the install is a copy), and, for the new seed of an update, in full into a
/// TEMP table of the update's own connection (`recordRowsSQL`). What a
/// seed carries beside Core Data's tables is what its rows cannot tell: its model
/// (`SEEDGEN_MODEL`) and the source identifiers its build gave objects (`SEEDGEN_IDENTIFIED`,
/// only when it gave any). An app pays neither in its download nor in its build for a record
/// only an update reads.
///
/// Beside the record, after a migration that kept digests over renamed and added columns, their
/// rules (`SEEDGEN_DIGESTED`, `DigestRule`); after one that gave entities new numbers, the
/// numbers the rows are under (`SEEDGEN_RENUMBERED`, `RecordNumbers`). Core Data reads only the
/// tables its model names and leaves others alone (apps keep their own tables, full-text
/// indexes for one, in the same file). An object whose row no longer digests to its recorded
/// value was changed by the user since install; an object not in the record was made by the user.
package enum SeedRecord {
    /// The table's name.
    package static let table = "SEEDGEN_SEEDED"
    /// Every table of seedgen's own beside Core Data's: the record's (the objects, the links, a
    /// migration's digest rules and entity numbers) and the seed's (its model, its identifiers).
    package static var tables: [String] { [table, packedTable, modelTable, linksTable, rulesTable, RecordNumbers.table, identifiersTable] }

    /// The table of the source identifiers a build gave objects (`seedgen:id`, `@id`), in the
    /// record's shape: entity number, `Z_PK` and the key the identifier names it by (`i t…`).
    package static let identifiersTable = "SEEDGEN_IDENTIFIED"
    /// Its definition: rows in (entity, `Z_PK`) order, without a rowid.
    package static let createIdentifiersSQL = "CREATE TABLE main.SEEDGEN_IDENTIFIED (ENTITY INTEGER, PK INTEGER, KEY TEXT, PRIMARY KEY (ENTITY, PK)) WITHOUT ROWID"

    /// Its definition: rows in (entity, `Z_PK`) order, without a rowid.
    package static let createSQL = "CREATE TABLE main.SEEDGEN_SEEDED (ENTITY INTEGER, PK INTEGER, KEY TEXT, DIGEST BLOB, PRIMARY KEY (ENTITY, PK)) WITHOUT ROWID"

    /// The columns of the concrete `entity`'s rows, in table order: with `positions`, its
    /// places in ordered to-manys (`Z_FOK_`) too.
    package static func columns(of entity: EntityLayout, in layout: StoreLayout, positions: Bool) -> [ColumnLayout] {
        guard let description = layout.model.entity(named: entity.name), let table = layout.table(named: entity.table) else { return [] }
        let lineage = Set(layout.model.lineage(of: description).map(\.name))
        return table.columns.filter { column in
            guard lineage.contains(column.entity) else { return false }
            if case .foreignOrder = column.role { return positions }
            return true
        }
    }

    /// The columns the digest covers: every column of the entity but its positions in ordered
    /// to-manys, which belong to the list (a list the user reorders, or one a new seed's
    /// objects join, renumbers its members without changing them).
    static func digestedColumns(of entity: EntityLayout, in layout: StoreLayout) -> [String] {
        columns(of: entity, in: layout, positions: false).map(\.name)
    }

    /// `seedgen_digest(…)` of the row `alias` of the concrete `entity`.
    package static func digestSQL(of entity: EntityLayout, in layout: StoreLayout, alias: String) -> String {
        Database.rowDigestSQL(digestedColumns(of: entity, in: layout).map { "\(alias).\(Database.quote($0))" })
    }

    /// Writes what a seed carries beside Core Data's tables into `database` (a store being built,
    /// inside its transaction): its model, and the source identifiers the build gave objects
    /// that no key names (identifiers local to the build, `#…`, are not passed here): an object
    /// that gives its entity's key under `buildKeys` is named by it, as the record names it.
    static func writeSeedTables(in database: Database, layout: StoreLayout, buildKeys: [String: [String]],
                                identifiers: [(entity: Int, primaryKey: Int64, identifier: String)]) throws(SQLiteError) {
        try insertModel(layout.model, in: database)
        guard !identifiers.isEmpty else { return }
        // Sorted out in TEMP first: a table made and dropped in the store would change its
        // schema cookie, which `VACUUM INTO` carries, and a rebuild from a dump would differ.
        try database.execute(createIdentifiersSQL.replacingOccurrences(of: "main.\(identifiersTable)", with: "temp.seedgen_identified"))
        defer { try? database.execute("DROP TABLE temp.seedgen_identified") }
        let identify = try database.prepare("INSERT OR IGNORE INTO temp.seedgen_identified VALUES (?, ?, 'i t' || hex(?))")
        for (entity, primaryKey, identifier) in identifiers {
            try identify.bind([.integer(Int64(entity)), .integer(primaryKey), .text(identifier)])
            try identify.run()
        }
        let names = ObjectNames(layout: layout, buildKeys: buildKeys)
        for entity in layout.entities where !entity.isAbstract {
            guard let given = names.keySQL(of: entity.name, alias: "t")?.given else { continue }
            try database.execute("""
                DELETE FROM temp.seedgen_identified WHERE ENTITY = \(entity.number)
                  AND PK IN (SELECT t.Z_PK FROM main.\(Database.quote(entity.table)) t WHERE t.Z_ENT = \(entity.number) AND \(given))
                """)
        }
        guard try database.scalar("SELECT 1 FROM temp.seedgen_identified LIMIT 1") != nil else { return }
        try database.execute("\(createIdentifiersSQL); INSERT INTO main.\(identifiersTable) SELECT * FROM temp.seedgen_identified")
    }

    /// Where the store or seed attached as `schema` keeps the identifiers its build gave objects:
    /// its record (an installed store, or a seed built before seeds left the record out), else
    /// its table of identifiers; nil when it has neither.
    package static func identifierSource(in database: Database, schema: String = "main") throws(SQLiteError) -> String? {
        for name in [table, identifiersTable] where try database.scalar("SELECT 1 FROM \(schema).sqlite_master WHERE type = 'table' AND name = ?", [.text(name)]) != nil {
            return "\(schema).\(name)"
        }
        return nil
    }

    /// The columns `recordRowsSQL` gives, in its order, for an `INSERT`'s column list.
    package static let recordRowsColumns = "PK, ENTITY, DIGEST, KEY"

    /// The rows (`recordRowsColumns`) of every object of the concrete `entity` in the store
    /// attached as `names.schema`, in `Z_PK` order: the record's rows for it, named by `names`
    /// (which must name content by digest) and, where `identifiers` holds one, by its source
    /// identifier; nil for an abstract entity. One compound `SELECT` ordered as a whole, so that
    /// SQLite merges its parts: objects named by a key come in table order and are not sorted
    /// (sorting every row took the 1M catalog's install from 39 to 51 MiB), those named by
    /// their values are.
    ///
    /// With `rule` (a migration kept the record's digests and names, `DigestRule`), each
    /// object is digested and, named by its values, named as the rule says, as the record
    /// holds it: the statement's parameters are then the rule's (`DigestRule.sql`). `recorded`
    /// is the number the rows are recorded under (`RecordNumbers`), the entity's by default.
    package static func recordRowsSQL(of entity: EntityLayout, names: ObjectNames, identifiers: String?, rule: DigestRule? = nil, recordedAs recorded: Int? = nil) -> String? {
        let identified = identifiers.map { ObjectNames.Identifiers(table: $0, entity: entity.number) }
        let digest = rule?.sql(alias: "t").sql ?? digestSQL(of: entity, in: names.layout, alias: "t")
        let carried = [(expression: "\(recorded ?? entity.number)", name: "ENTITY"), (expression: digest, name: "DIGEST")]
        let named = rule.flatMap { $0.named.isEmpty ? nil : $0.named }
        return names.namedRows(of: entity, identifiedIn: identified, carrying: carried, contentColumns: named).map { "\($0) ORDER BY 1" }
    }

    /// Records the seed the store open on `database` was installed from (inside the caller's
    /// transaction, before the store holds anything but the seed's rows): every object and link
    /// of `layout` as they are, objects named under `buildKeys` or by the identifiers the seed
    /// carries (whose table the record then replaces).
    package static func recordInstalled(in database: Database, layout: StoreLayout, buildKeys: [String: [String]]) throws(SQLiteError) {
        database.registerRowDigest()
        let identifiers = try identifierSource(in: database)
        try database.execute(createSQL)
        let names = ObjectNames(layout: layout, buildKeys: buildKeys, contentByDigest: true)
        for entity in layout.entities where !entity.isAbstract {
            guard let rows = recordRowsSQL(of: entity, names: names, identifiers: identifiers) else { continue }
            // In the table's order: objects named by their values come out of their numbering in
            // name order, and a million inserts at random places took an install 20 s.
            try database.execute("INSERT INTO main.\(table) (\(recordRowsColumns)) \(rows)")
        }
        try writeLinks(in: database, layout: layout)
        if identifiers != nil { try database.execute("DROP TABLE main.\(identifiersTable)") }
    }

    /// True when the store open on `database` holds a seed record (or the record's table `name`).
    package static func isPresent(_ name: String = table, in database: Database) throws(SQLiteError) -> Bool {
        try database.scalar("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", [.text(name)]) != nil
    }
}
