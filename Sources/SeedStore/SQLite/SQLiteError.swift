/// A failed SQLite call: its result code, SQLite's message and the statement that failed.
public struct SQLiteError: Error, Sendable, CustomStringConvertible {
    /// The (extended) SQLite result code.
    public var code: Int32
    /// SQLite's message.
    public var message: String
    /// The SQL being run, when there was one.
    public var sql: String?

    /// Creates an error.
    package init(code: Int32, message: String, sql: String? = nil) {
        self.code = code
        self.message = message
        self.sql = sql
    }

    /// `SQLite error 19: UNIQUE constraint failed: ... (in: INSERT ...)`.
    public var description: String {
        var text = "SQLite error \(code): \(message)"
        if let sql { text += " (in: \(sql))" }
        return text
    }
}
