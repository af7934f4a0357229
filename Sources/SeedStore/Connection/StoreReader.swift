/// Reads rows from an existing store without changing it (for dumps and tools).
package final class StoreReader {
    package let file: StoreFile
    /// The layouts (by schema and entity order) whose values `requireReadableValues` found
    /// readable: a reader is read-only, so its values are checked once per layout, not per fetch.
    var readableLayouts: Set<[String]> = []

    /// Opens the store at `path` read-only.
    package init(path: String) throws {
        file = try StoreFile(path: path)
    }

    /// Calls `body` with `Z_PK`, `Z_ENT` and the named columns of every row of an entity table, in `Z_PK` order.
    package func forEachObjectRow(in table: String, columns: [String], _ body: ([SQLValue]) throws -> Void) throws {
        let selected = (["Z_PK", "Z_ENT"] + columns).map(Database.quote).joined(separator: ", ")
        try forEachRow("SELECT \(selected) FROM \(Database.quote(table)) ORDER BY Z_PK", [], body)
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
