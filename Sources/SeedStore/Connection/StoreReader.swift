/// Reads rows from an existing store without changing it (for dumps and tools).
package final class StoreReader {
    let file: StoreFile

    /// Opens the store at `path` read-only.
    package init(path: String) throws {
        file = try StoreFile(path: path)
    }

    /// Calls `body` with every row of an entity table (all columns, in table order), in `Z_PK` order.
    package func forEachObjectRow(in table: String, _ body: ([SQLValue]) throws -> Void) throws {
        try forEachRow("SELECT * FROM \(Database.quote(table)) ORDER BY Z_PK", [], body)
    }

    /// Calls `body` with `Z_PK`, `Z_ENT` and the named columns of every row of an entity table, in `Z_PK` order.
    package func forEachObjectRow(in table: String, columns: [String], _ body: ([SQLValue]) throws -> Void) throws {
        let selected = (["Z_PK", "Z_ENT"] + columns).map(Database.quote).joined(separator: ", ")
        try forEachRow("SELECT \(selected) FROM \(Database.quote(table)) ORDER BY Z_PK", [], body)
    }

    /// Calls `body` with the `Z_PK` and value of every row of `table` whose `column` is not NULL.
    package func forEachValue(of column: String, in table: String, _ body: (Int64, SQLValue) throws -> Void) throws {
        let name = Database.quote(column)
        try forEachRow("SELECT Z_PK, \(name) FROM \(Database.quote(table)) WHERE \(name) IS NOT NULL") { row in
            try body(row[0].integer ?? 0, row[1])
        }
    }

    /// Runs a query and calls `body` with each row (for tests and tools that read any SQL).
    package func forEachRow(_ sql: String, _ arguments: [SQLValue] = [], _ body: ([SQLValue]) throws -> Void) throws {
        let statement = try file.database.prepare(sql)
        try statement.bind(arguments)
        while try statement.step() {
            try body(statement.row())
        }
    }
}

@available(*, unavailable)
extension StoreReader: Sendable {}
