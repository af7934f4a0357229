import SeedStore

/// Queries a store read-only and renders rows as the `sqlite3` shell does (`a|b|c`, NULL
/// empty), without needing that shell on the machine.
public enum SQLiteShell {
    /// The rows of `sql` on the store at `path`, one `|`-separated line each.
    public static func rows(_ path: String, _ sql: String) throws -> [String] {
        var lines: [String] = []
        try StoreReader(path: path).forEachRow(sql) { row in
            lines.append(row.map { value -> String in
                switch value {
                case .null: ""
                case .integer(let number): String(number)
                case .real(let number): "\(number)"
                case .text(let text): text
                case .blob(let bytes): bytes.map { String($0, radix: 16) }.joined()
                }
            }.joined(separator: "|"))
        }
        return lines
    }
}
