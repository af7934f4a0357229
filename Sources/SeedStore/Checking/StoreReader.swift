/// Reads rows from an existing store without changing it (for dumps and tools).
public final class StoreReader {
    let file: StoreFile

    /// Opens the store at `path` read-only.
    public init(path: String) throws {
        file = try StoreFile(path: path)
    }

    /// Runs a query and calls `body` with each row.
    public func forEachRow(_ sql: String, _ arguments: [SQLValue] = [], _ body: ([SQLValue]) throws -> Void) throws {
        let statement = try file.database.prepare(sql)
        try statement.bind(arguments)
        while try statement.step() {
            try body(statement.row())
        }
    }
}
