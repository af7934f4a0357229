import SeedgenSQLite

/// A compiled statement, reused across rows: bind, step, reset.
///
/// Made by `StoreBuilder.prepare`; used on the import hot path, so binding goes straight to
/// `sqlite3_bind_*`.
package final class Statement {
    /// The statement's SQL.
    package let sql: String
    /// The compiled statement (the content digest reads columns straight from it).
    let handle: OpaquePointer
    private let database: Database

    /// Binds a double to a 1-based parameter (hot path).
    package func bind(_ value: Double, at index: Int32) throws(SQLiteError) {
        try check(sqlite3_bind_double(handle, index, value))
    }

    /// Binds an integer to a 1-based parameter (hot path).
    package func bind(_ value: Int64, at index: Int32) throws(SQLiteError) {
        try check(sqlite3_bind_int64(handle, index, value))
    }

    /// Runs a statement that returns no rows, then resets it for the next use.
    package func run() throws(SQLiteError) {
        defer { reset() }
        while try step() {}
    }

    init(_ handle: OpaquePointer, sql: String, database: Database) {
        self.handle = handle
        self.sql = sql
        self.database = database
    }

    deinit {
        sqlite3_finalize(handle)
    }

    private func check(_ code: Int32) throws(SQLiteError) {
        if code != SQLITE_OK {
            throw SQLiteError(code: code, message: database.lastMessage, sql: sql)
        }
    }

    /// Binds values to parameters 1, 2, ...
    package func bind(_ values: [SQLValue]) throws(SQLiteError) {
        for (offset, value) in values.enumerated() {
            try bind(value, at: Int32(offset + 1))
        }
    }

    /// Binds one value to a 1-based parameter.
    package func bind(_ value: SQLValue, at index: Int32) throws(SQLiteError) {
        switch value {
        case .null: try check(sqlite3_bind_null(handle, index))
        case .integer(let number): try check(sqlite3_bind_int64(handle, index, number))
        case .real(let number): try check(sqlite3_bind_double(handle, index, number))
        case .text(let text): try bind(text: text, at: index)
        case .blob(let bytes):
            try check(bytes.withUnsafeBytes { buffer in
                sqlite3_bind_blob(handle, index, buffer.baseAddress ?? UnsafeRawPointer(bitPattern: 1), Int32(buffer.count), SQLITE_TRANSIENT)
            })
        }
    }

    /// Binds text with its byte length, so a NUL inside it is kept (a C string would end there).
    private func bind(text: String, at index: Int32) throws(SQLiteError) {
        var text = text
        try check(text.withUTF8 { bytes in
            // A nil pointer would bind NULL: the empty string needs an address too.
            sqlite3_bind_text64(handle, index, UnsafeRawPointer(bytes.baseAddress ?? UnsafePointer(bitPattern: 1)!).assumingMemoryBound(to: CChar.self),
                                UInt64(bytes.count), SQLITE_TRANSIENT, UInt8(SQLITE_UTF8))
        })
    }

    /// A blob this long or longer is bound where it lies for one run, not copied into SQLite.
    static let borrowedBlobSize = 64 * 1024

    /// Binds `values` to parameters `first`, `first + 1`, … (a nil leaves its parameter NULL),
    /// runs the statement and resets it. A blob of `borrowedBlobSize` bytes or more is bound
    /// where it lies while the statement runs rather than copied (SQLite copied a million
    /// strings' 34 MB archive before it made its record of it, a third copy at once).
    package func run(binding values: UnsafeBufferPointer<SQLValue?>, from first: Int32) throws(SQLiteError) {
        if let failure = bindAndRun(values, from: first, at: 0) {
            reset()
            throw failure
        }
    }

    /// Binds `values[position...]` and runs; a borrowed blob nests the rest inside its
    /// buffer's lifetime (as deep as the row has such blobs: one per column at most).
    private func bindAndRun(_ values: UnsafeBufferPointer<SQLValue?>, from first: Int32, at position: Int) -> SQLiteError? {
        var position = position
        while position < values.count {
            defer { position += 1 }
            guard let value = values[position] else { continue }
            let index = first + Int32(position)
            if case .blob(let bytes) = value, bytes.count >= Self.borrowedBlobSize {
                let rest = position + 1
                return bytes.withUnsafeBytes { buffer -> SQLiteError? in
                    do throws(SQLiteError) {
                        try check(sqlite3_bind_blob64(handle, index, buffer.baseAddress!, UInt64(buffer.count), nil))
                    } catch {
                        return error
                    }
                    // Run before the buffer's lifetime ends; the run's reset unbinds it.
                    return bindAndRun(values, from: first, at: rest)
                }
            }
            do throws(SQLiteError) { try bind(value, at: index) } catch { return error }
        }
        do throws(SQLiteError) { try run() } catch { return error }
        return nil
    }

    /// Advances to the next row; false when done.
    package func step() throws(SQLiteError) -> Bool {
        let code = sqlite3_step(handle)
        switch code {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default: throw SQLiteError(code: code, message: database.lastMessage, sql: sql)
        }
    }

    /// Makes the statement ready to run again with new bindings.
    package func reset() {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
    }

    /// The name of a 0-based result column.
    func columnName(at index: Int) -> String {
        sqlite3_column_name(handle, Int32(index)).map { String(cString: $0) } ?? ""
    }

    /// The number of result columns.
    package var columnCount: Int { Int(sqlite3_column_count(handle)) }

    /// The value of a 0-based column of the current row.
    package func value(at index: Int) -> SQLValue {
        let column = Int32(index)
        switch sqlite3_column_type(handle, column) {
        case SQLITE_INTEGER: return .integer(sqlite3_column_int64(handle, column))
        case SQLITE_FLOAT: return .real(sqlite3_column_double(handle, column))
        case SQLITE_TEXT:
            let count = Int(sqlite3_column_bytes(handle, column))
            guard let text = sqlite3_column_text(handle, column) else { return .text("") }
            return .text(String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self))
        case SQLITE_BLOB:
            let count = Int(sqlite3_column_bytes(handle, column))
            guard count > 0, let bytes = sqlite3_column_blob(handle, column) else { return .blob([]) }
            return .blob(Array(UnsafeRawBufferPointer(start: bytes, count: count)))
        default: return .null
        }
    }

    /// Every column of the current row.
    package func row() -> [SQLValue] {
        (0..<columnCount).map { value(at: $0) }
    }
}

/// SQLite's "copy the bytes now" destructor, which the C macro cannot express in Swift.
let SQLITE_TRANSIENT = unsafeBitCast(OpaquePointer(bitPattern: -1), to: sqlite3_destructor_type.self)
