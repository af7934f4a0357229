/// Numbering the places of ordered to-manys again, as a build numbers them (2048, 3072, …:
/// `ObjectRows.storedPosition`), in SQL over whole lists: the one way the update (where the new
/// seed's objects and the store's now share a place) and the migration (a to-many made ordered)
/// number a list.
package struct OrderedListNumbering {
    /// Where one ordered to-many keeps its places: `table` (the members' table, or a join
    /// table), the column naming each member's list (`holder`), the member (`member`: `Z_PK`, or
    /// the join table's member column) and its place (`position`).
    package struct Columns: Sendable {
        package var table: String
        package var holder: String
        package var member: String
        package var position: String

        package init(table: String, holder: String, member: String, position: String) {
            self.table = table
            self.holder = holder
            self.member = member
            self.position = position
        }
    }

    /// Which lists are numbered again.
    package enum Lists: Sendable {
        /// Each list where two members share a place, in the order of their places, then of
        /// their members.
        case sharingPlaces
        /// Every list, in the order of its members (a to-many made ordered).
        case all
    }

    /// The TEMP table of the last numbering's changes: `HOLDER`, `MEMBER`, `OLD`, `NEW` (what
    /// a caller keeping places elsewhere, the record of links, follows).
    package static let renumbered = "seedgen_renumbered"

    /// SQL of the stored position of the 1-based place `place` (an SQL expression).
    package static func positionSQL(ofPlace place: String) -> String {
        "\(ObjectRows.positionStep) * (1 + \(place))"
    }

    let database: Database

    package init(database: Database) {
        self.database = database
    }

    /// Numbers `lists` of `columns` in the schema `schema` again, every member of such a list
    /// (with `bumpingRowVersion`, its `Z_OPT` counts the save); keeps what changed in
    /// `renumbered`. Returns how many members were numbered.
    @discardableResult
    package func renumber(_ columns: Columns, lists: Lists, schema: String = "main", bumpingRowVersion: Bool = false) throws(SQLiteError) -> Int {
        let (table, holder, member, position) = (Database.quote(columns.table), Database.quote(columns.holder), Database.quote(columns.member), Database.quote(columns.position))
        let which: String, order: String
        switch lists {
        case .sharingPlaces:
            which = "\(holder) IN (SELECT \(holder) FROM \(schema).\(table) WHERE \(holder) IS NOT NULL GROUP BY \(holder), \(position) HAVING COUNT(*) > 1)"
            order = "\(position), \(member)"
        case .all:
            which = "\(holder) IS NOT NULL"
            order = member
        }
        try database.execute("""
            DROP TABLE IF EXISTS temp.\(Self.renumbered);
            CREATE TEMP TABLE \(Self.renumbered) AS SELECT rowid AS ID, \(holder) AS HOLDER, \(member) AS MEMBER, \(position) AS OLD,
              \(Self.positionSQL(ofPlace: "ROW_NUMBER() OVER (PARTITION BY \(holder) ORDER BY \(order))")) AS NEW
            FROM \(schema).\(table) WHERE \(which);
            """)
        let count = Int(try database.scalar("SELECT COUNT(*) FROM temp.\(Self.renumbered)")?.integer ?? 0)
        guard count > 0 else { return 0 }
        try database.execute("""
            UPDATE \(schema).\(table) SET \(position) = r.NEW\(bumpingRowVersion ? ", Z_OPT = Z_OPT + 1" : "")
            FROM temp.\(Self.renumbered) r WHERE \(table).rowid = r.ID
            """)
        return count
    }
}
