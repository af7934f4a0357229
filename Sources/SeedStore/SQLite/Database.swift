import Foundation
import SeedgenSQLite

/// One SQLite connection. Not shared between threads: each user opens its own.
package final class Database {
    /// How to open a database file.
    package enum Mode {
        /// Never writes; fails if the file is missing.
        case readOnly
        /// Reads and writes an existing file.
        case readWrite
        /// Creates the file if it is missing.
        case create
    }

    let path: String
    private(set) var handle: OpaquePointer?

    /// Opens `path`. With `immutable`, SQLite reads the file as a snapshot that nothing else
    /// changes: no lock, no `-shm`/`-wal` files created (for stores in read-only places).
    package init(path: String, mode: Mode, immutable: Bool = false) throws(SQLiteError) {
        self.path = path
        var flags = SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_URI
        switch mode {
        case .readOnly: flags |= SQLITE_OPEN_READONLY
        case .readWrite: flags |= SQLITE_OPEN_READWRITE
        case .create: flags |= SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
        }
        var handle: OpaquePointer?
        let code = sqlite3_open_v2(Self.uri(for: path) + (immutable ? "?immutable=1" : ""), &handle, flags, nil)
        if code != SQLITE_OK {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open"
            sqlite3_close_v2(handle)
            throw SQLiteError(code: code, message: "\(message): \(path)")
        }
        sqlite3_extended_result_codes(handle, 1)
        self.handle = handle
        registerKeyPart()
    }

    deinit {
        sqlite3_close_v2(handle)
    }

    /// A `file:` URI for `path`, so that names with `?` or `#` are taken literally.
    package static func uri(for path: String) -> String {
        var escaped = "file:"
        for scalar in path.unicodeScalars {
            switch scalar {
            case "?", "#", "%": escaped += String(format: "%%%02X", scalar.value)
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }

    /// Runs one or more statements that return no rows.
    package func execute(_ sql: String) throws(SQLiteError) {
        var message: UnsafeMutablePointer<CChar>?
        let code = sqlite3_exec(handle, sql, nil, nil, &message)
        if code != SQLITE_OK {
            let text = message.map { String(cString: $0) } ?? lastMessage
            sqlite3_free(message)
            throw SQLiteError(code: code, message: text, sql: sql)
        }
    }

    /// Compiles one statement.
    package func prepare(_ sql: String) throws(SQLiteError) -> Statement {
        var statement: OpaquePointer?
        let code = sqlite3_prepare_v2(handle, sql, -1, &statement, nil)
        guard code == SQLITE_OK, let statement else {
            throw SQLiteError(code: code, message: lastMessage, sql: sql)
        }
        return Statement(statement, sql: sql, database: self)
    }

    /// Runs one statement with arguments that returns no rows.
    package func run(_ sql: String, _ arguments: [SQLValue]) throws(SQLiteError) {
        let statement = try prepare(sql)
        try statement.bind(arguments)
        try statement.run()
    }

    /// Every row of a query, as values.
    package func rows(_ sql: String, _ arguments: [SQLValue] = []) throws(SQLiteError) -> [[SQLValue]] {
        let statement = try prepare(sql)
        try statement.bind(arguments)
        var result: [[SQLValue]] = []
        while try statement.step() {
            result.append(statement.row())
        }
        return result
    }

    /// The first column of the first row, or nil when there is no row.
    package func scalar(_ sql: String, _ arguments: [SQLValue] = []) throws(SQLiteError) -> SQLValue? {
        let statement = try prepare(sql)
        try statement.bind(arguments)
        return try statement.step() ? statement.value(at: 0) : nil
    }

    /// Rows inserted, updated or deleted on this connection since it opened.
    var totalChanges: Int {
        Int(sqlite3_total_changes64(handle))
    }

    /// Rows changed by the last INSERT, UPDATE or DELETE.
    package var changes: Int {
        Int(sqlite3_changes(handle))
    }

    /// How long a statement waits for another connection's lock before failing with SQLITE_BUSY.
    func setBusyTimeout(milliseconds: Int32) {
        sqlite3_busy_timeout(handle, milliseconds)
    }

    var lastMessage: String {
        String(cString: sqlite3_errmsg(handle))
    }
}

extension Database {
    /// Quotes an identifier for SQL (`"name"`).
    /// SQLite's bound on the bytes of one value or one row (`SQLITE_LIMIT_LENGTH`); with
    /// `lowered`, sets it lower first.
    func lengthLimit(lowered: Int? = nil) -> Int {
        if let lowered { sqlite3_limit(handle, SQLITE_LIMIT_LENGTH, Int32(clamping: lowered)) }
        return Int(sqlite3_limit(handle, SQLITE_LIMIT_LENGTH, -1))
    }

    package static func quote(_ identifier: String) -> String {
        guard identifier.utf8.contains(UInt8(ascii: "\"")) else { return "\"" + identifier + "\"" }
        return "\"" + identifier.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
