import SeedModel

/// What a seed records of each object it holds, so that a later seed can update a store
/// installed from it without touching what the user changed: the table `SEEDGEN_SEEDED`, one
/// row per object — its entity number and `Z_PK`, the key that names it (`ObjectNames`: the
/// build's key or the model's uniqueness constraint, else the source identifier the build gave
/// it, else a digest of its values) and a 16-byte digest of
/// its row as the seed wrote it (`seedgen_digest` over every column of its entity but `Z_PK`,
/// `Z_ENT`, `Z_OPT` and its positions in ordered to-manys).
///
/// Beside it, the seed's model (`SEEDGEN_MODEL`), its many-to-many links (`SEEDGEN_LINKED`)
/// and, after a migration that kept digests over renamed and added columns, their rules
/// (`SEEDGEN_DIGESTED`, `DigestRule`); after one that gave entities new numbers, the numbers the
/// rows are under (`SEEDGEN_RENUMBERED`, `RecordNumbers`).
///
/// The record lives in the store file itself: an installed store is the seed's bytes, so it
/// carries the record with no step at install time, and any copy of the seed is an installed
/// store. Core Data reads only the tables its model names and leaves others alone (apps keep
/// their own tables, full-text indexes for one, in the same file); `verify` covers the record
/// with the content digest. An object whose row no longer digests to its recorded value was
/// changed by the user since install; an object not in the record was made by the user.
package enum SeedRecord {
    /// The table's name.
    package static let table = "SEEDGEN_SEEDED"
    /// Every table of the record (the objects, the model, the links, a migration's digest
    /// rules and entity numbers).
    package static var tables: [String] { [table, modelTable, linksTable, rulesTable, RecordNumbers.table] }

    /// Its definition: rows in (entity, `Z_PK`) order, without a rowid.
    package static let createSQL = "CREATE TABLE SEEDGEN_SEEDED (ENTITY INTEGER, PK INTEGER, KEY TEXT, DIGEST BLOB, PRIMARY KEY (ENTITY, PK)) WITHOUT ROWID"

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

    /// Writes the record of every object of `database` (a store being built, inside its
    /// transaction), named under `buildKeys`, or by the source identifier the build gave it.
    static func write(in database: Database, layout: StoreLayout, buildKeys: [String: [String]],
                      identifiers: [(entity: Int, primaryKey: Int64, identifier: String)] = []) throws(SQLiteError) {
        database.registerRowDigest()
        try database.execute(createSQL)
        try writeModel(layout.model, in: database)
        try writeLinks(in: database, layout: layout)
        try database.execute("CREATE TEMP TABLE seedgen_identifiers (ENTITY INTEGER, PK INTEGER, KEY TEXT, PRIMARY KEY (ENTITY, PK)) WITHOUT ROWID")
        defer { try? database.execute("DROP TABLE temp.seedgen_identifiers") }
        let identify = try database.prepare("INSERT OR IGNORE INTO temp.seedgen_identifiers VALUES (?, ?, 'i t' || hex(?))")
        for (entity, primaryKey, identifier) in identifiers {
            try identify.bind([.integer(Int64(entity)), .integer(primaryKey), .text(identifier)])
            try identify.run()
        }
        let names = ObjectNames(layout: layout, buildKeys: buildKeys, contentByDigest: true)
        for entity in layout.entities where !entity.isAbstract {
            let identified = identifiers.isEmpty ? nil : ObjectNames.Identifiers(table: "temp.seedgen_identifiers", entity: entity.number)
            guard let named = names.namedRows(of: entity, identifiedIn: identified) else { continue }
            try database.execute("""
                INSERT INTO \(table) (ENTITY, PK, KEY, DIGEST)
                SELECT \(entity.number), t.Z_PK, n.key, \(digestSQL(of: entity, in: layout, alias: "t"))
                FROM (\(named)) n JOIN \(Database.quote(entity.table)) t ON t.Z_PK = n.Z_PK
                """)
        }
    }

    /// True when the store open on `database` holds a seed record (or the record's table `name`).
    package static func isPresent(_ name: String = table, in database: Database) throws(SQLiteError) -> Bool {
        try database.scalar("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", [.text(name)]) != nil
    }
}
