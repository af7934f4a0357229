/// A failed SQLite call: its result code, SQLite's message and the statement that failed.
///
/// Switch on `code.primary` to tell a busy store from a full disk or a damaged file:
/// `if error.code.primary == .busy { … }`.
public struct SQLiteError: Error, Sendable, CustomStringConvertible {
    /// SQLite's result code, as extended as SQLite gave it (`SQLITE_IOERR_SHORT_READ`, …).
    public var code: Code
    /// SQLite's message.
    public var message: String
    /// The SQL being run, when there was one.
    public var sql: String?

    /// An SQLite result code; the constants are the primary codes (`https://sqlite.org/rescode.html`).
    public struct Code: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        /// The number SQLite returned.
        public var rawValue: Int32

        /// A code from its number.
        public init(rawValue: Int32) {
            self.rawValue = rawValue
        }

        /// The primary code of an extended one (its low byte): `SQLITE_BUSY_SNAPSHOT` → `.busy`.
        public var primary: Code { Code(rawValue: rawValue & 0xFF) }

        /// `SQLITE_ERROR`: a generic error (bad SQL, missing table).
        public static let error = Code(rawValue: 1)
        /// `SQLITE_PERM`: the access mode of a new database cannot be granted.
        public static let permission = Code(rawValue: 3)
        /// `SQLITE_BUSY`: another connection holds a lock on the file.
        public static let busy = Code(rawValue: 5)
        /// `SQLITE_LOCKED`: a conflict inside this connection's process.
        public static let locked = Code(rawValue: 6)
        /// `SQLITE_NOMEM`: out of memory.
        public static let noMemory = Code(rawValue: 7)
        /// `SQLITE_READONLY`: the database cannot be written.
        public static let readOnly = Code(rawValue: 8)
        /// `SQLITE_IOERR`: the operating system reported an I/O error.
        public static let ioError = Code(rawValue: 10)
        /// `SQLITE_CORRUPT`: the file is damaged.
        public static let corrupt = Code(rawValue: 11)
        /// `SQLITE_FULL`: the disk (or the database's size limit) is full.
        public static let full = Code(rawValue: 13)
        /// `SQLITE_CANTOPEN`: the file cannot be opened.
        public static let cannotOpen = Code(rawValue: 14)
        /// `SQLITE_CONSTRAINT`: a constraint (UNIQUE, NOT NULL, …) failed.
        public static let constraint = Code(rawValue: 19)
        /// `SQLITE_MISMATCH`: a datatype mismatch.
        public static let mismatch = Code(rawValue: 20)
        /// `SQLITE_NOTADB`: the file is not a database.
        public static let notADatabase = Code(rawValue: 26)
        /// `SQLITE_READONLY_ROLLBACK`: a hot journal beside the database, which a read-only
        /// connection cannot roll back.
        package static let readOnlyRollback = Code(rawValue: 776)

        /// The number.
        public var description: String { String(rawValue) }
    }

    package init(code: Int32, message: String, sql: String? = nil) {
        self.init(code: Code(rawValue: code), message: message, sql: sql)
    }

    package init(code: Code, message: String, sql: String? = nil) {
        self.code = code
        self.message = message
        self.sql = sql
    }

    /// Whether SQLite could not read or write the file at all (it could not open it, had no
    /// permission, the disk is full or failed, another connection holds it, memory ran out),
    /// rather than refusing what the file holds (not a database, damaged, a constraint).
    package var isAccessFailure: Bool {
        switch code.primary {
        case .cannotOpen, .permission, .readOnly, .ioError, .full, .busy, .locked, .noMemory: true
        default: false
        }
    }

    /// `SQLite error 19: UNIQUE constraint failed: ... (in: INSERT ...)`; long SQL is cut.
    public var description: String {
        var text = "SQLite error \(code): \(message)"
        if code == .readOnlyRollback {
            text += " (the -journal beside it holds a write that was cut off; reading cannot roll it back: "
                + "open the store for writing once, as the app or `seedgen migrate` does)"
        }
        if let sql { text += " (in: \(sql.count > 300 ? String(sql.prefix(300)) + "… (\(sql.count) characters)" : sql))" }
        return text
    }
}
