import SeedModel

/// The many-to-many links a seed holds, recorded beside its objects (`SEEDGEN_LINKED`: a join
/// table's name, the two `Z_PK`s of each of its rows, in the store's numbering, and the row's
/// positions in ordered lists), so that a later seed can tell a link its seed made from one the
/// user made, one the user removed from one the seed never had, and a place the user moved a
/// link to from the seed's: an update removes a link the new seed drops only where the record
/// shows the seed made it, adds a link the new seed makes only where the record does not show
/// the user removed it, and moves a link to the new seed's place only where it is still at the
/// recorded one. A store whose record has no such table (built before links
/// were recorded, or migrated since: a migration may fold or rename join tables) is updated by
/// adding links only, and records them from then on.
extension SeedRecord {
    /// The table's name.
    package static let linksTable = "SEEDGEN_LINKED"

    /// Its definition: a join table's name, the two `Z_PK`s of a link and its positions in
    /// ordered lists (`P1`, `P2`: the join table's order columns in `JoinTableLayout.orderColumns`
    /// order, NULL where it has none).
    package static let createLinksSQL = """
        CREATE TABLE main.SEEDGEN_LINKED (JOINTABLE TEXT, A INTEGER, B INTEGER, P1 INTEGER, P2 INTEGER,
          PRIMARY KEY (JOINTABLE, A, B)) WITHOUT ROWID
        """

    /// The positions of the join row `alias` of `join` as the record keeps them: `P1, P2`
    /// (named so, with `named`).
    package static func positions(of join: JoinTableLayout, alias: String, named: Bool = false) -> String {
        (0..<2).map { index in
            (index < join.orderColumns.count ? "\(alias).\(Database.quote(join.orderColumns[index]))" : "NULL") + (named ? " AS P\(index + 1)" : "")
        }.joined(separator: ", ")
    }

    /// Replaces the record of links with every link of every join table of `layout` in the
    /// store open on `database` (a store being built: all its links are the seed's).
    static func writeLinks(in database: Database, layout: StoreLayout) throws(SQLiteError) {
        try database.execute("DROP TABLE IF EXISTS main.\(linksTable); " + createLinksSQL)
        for join in layout.joinTables {
            try database.run("""
                INSERT INTO main.\(linksTable) SELECT ?, j.\(Database.quote(join.firstColumn)), j.\(Database.quote(join.secondColumn)), \(positions(of: join, alias: "j"))
                FROM main.\(Database.quote(join.name)) j
                """, [.text(join.name)])
        }
    }

    /// True when the store open on `database` records its seed's links.
    package static func recordsLinks(in database: Database) throws(SQLiteError) -> Bool {
        try isPresent(linksTable, in: database)
    }
}
