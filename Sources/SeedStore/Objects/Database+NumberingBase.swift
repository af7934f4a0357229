extension Database {
    /// The `Z_PK` above which new objects of `table` (a table of `layout`) are numbered in the
    /// store open on this connection: the larger of its root entity's `Z_MAX` and its highest
    /// `Z_PK`, so a store whose `Z_MAX` lags its rows never has a number given twice. The one
    /// place an engine reads it: the update numbers its new objects above it, and its check
    /// before `COMMIT` counts the rows above it as new.
    package func numberingBase(of table: TableLayout, in layout: StoreLayout) throws(SQLiteError) -> Int64 {
        let root = layout.entity(named: table.rootEntity).map { Int64($0.number) } ?? 0
        return max(try scalar("SELECT IFNULL(MAX(Z_MAX), 0) FROM main.Z_PRIMARYKEY WHERE Z_ENT = ?", [.integer(root)])?.integer ?? 0,
                   try scalar("SELECT IFNULL(MAX(Z_PK), 0) FROM main.\(Database.quote(table.name))")?.integer ?? 0)
    }
}
