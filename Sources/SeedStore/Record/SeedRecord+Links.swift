import SeedModel

/// The many-to-many links a seed holds, recorded beside its objects (`SEEDGEN_LINKED`: a join
/// table's name and the two `Z_PK`s of each of its rows, in the store's numbering), so that a
/// later seed can tell a link its seed made from one the user made, and one the user removed
/// from one the seed never had: an update removes a link the new seed drops only where the
/// record shows the seed made it, and adds a link the new seed makes only where the record does
/// not show the user removed it. A store whose record has no such table (built before links
/// were recorded, or migrated since: a migration may fold or rename join tables) is updated by
/// adding links only, and records them from then on.
extension SeedRecord {
    /// The table's name.
    package static let linksTable = "SEEDGEN_LINKED"

    /// Replaces the record of links with every link of every join table of `layout` in the
    /// store open on `database` (a store being built: all its links are the seed's).
    static func writeLinks(in database: Database, layout: StoreLayout) throws(SQLiteError) {
        try database.execute("""
            DROP TABLE IF EXISTS main.\(linksTable);
            CREATE TABLE main.\(linksTable) (JOINTABLE TEXT, A INTEGER, B INTEGER, PRIMARY KEY (JOINTABLE, A, B)) WITHOUT ROWID
            """)
        for join in layout.joinTables {
            try database.run("""
                INSERT INTO main.\(linksTable) SELECT ?, \(Database.quote(join.firstColumn)), \(Database.quote(join.secondColumn))
                FROM main.\(Database.quote(join.name))
                """, [.text(join.name)])
        }
    }

    /// True when the store open on `database` records its seed's links.
    static func recordsLinks(in database: Database) throws(SQLiteError) -> Bool {
        try isPresent(linksTable, in: database)
    }
}
