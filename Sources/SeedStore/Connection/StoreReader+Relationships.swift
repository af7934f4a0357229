extension StoreReader {
    /// The layout of `layout.model` as this store holds it (`StoreFile.storedLayout`): its own
    /// framework era, and join-table columns named as a forward migration kept them.
    package func storedLayout(of layout: StoreLayout) throws -> StoreLayout {
        try file.storedLayout(of: layout, frameworkVersion: file.frameworkVersion()).layout
    }

    /// The members of a one-to-many from its to-one side: (owner, member `Z_PK`) for every row
    /// of `table` whose `columns.key` is set, each owner's members in their order (the position
    /// column when the to-many is ordered, then `Z_PK`).
    package func forEachMember(in table: String, _ columns: ToOneColumns, _ body: (Int64, Int64) throws -> Void) throws {
        let key = Database.quote(columns.key)
        let order = columns.order.map { Database.quote($0) + ", " } ?? ""
        try forEachRow("SELECT \(key), Z_PK FROM \(Database.quote(table)) WHERE \(key) IS NOT NULL ORDER BY \(key), \(order)Z_PK") { row in
            try body(row[0].integer ?? 0, row[1].integer ?? 0)
        }
    }

    /// The rows of a many-to-many's join table as (holder, member), seen from one side: the
    /// holders in `holderIsFirst`'s column, each holder's members in the order of the position
    /// column that orders them (when that side is ordered), then by `Z_PK`.
    package func forEachJoinRow(_ join: JoinTableLayout, holderIsFirst: Bool, _ body: (Int64, Int64) throws -> Void) throws {
        let (holder, member) = holderIsFirst ? (join.firstColumn, join.secondColumn) : (join.secondColumn, join.firstColumn)
        let ordering = join.orderings.first { $0.holderColumn == holder }.map { Database.quote($0.column) + ", " } ?? ""
        try forEachRow("""
            SELECT \(Database.quote(holder)), \(Database.quote(member)) FROM \(Database.quote(join.name))
            ORDER BY \(Database.quote(holder)), \(ordering)\(Database.quote(member))
            """) { row in
            try body(row[0].integer ?? 0, row[1].integer ?? 0)
        }
    }
}
