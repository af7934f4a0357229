import SeedgenSQLite

extension Statement {
    /// Feeds the current row to a content digest, each column as its stored value
    /// (`BufferedDigest.feed(integer:)` and the others). Returns column 1 as an integer (`Z_ENT`).
    func feedRow(columns: Int, into digest: inout BufferedDigest) -> Int64 {
        for index in 0..<Int32(columns) {
            switch sqlite3_column_type(handle, index) {
            case SQLITE_INTEGER:
                digest.feed(integer: sqlite3_column_int64(handle, index))
            case SQLITE_FLOAT:
                digest.feed(real: sqlite3_column_double(handle, index))
            case SQLITE_TEXT:
                let start = UnsafeRawPointer(sqlite3_column_text(handle, index))
                digest.feed(text: UnsafeRawBufferPointer(start: start, count: Int(sqlite3_column_bytes(handle, index))))
            case SQLITE_BLOB:
                let start = sqlite3_column_blob(handle, index)
                digest.feed(blob: UnsafeRawBufferPointer(start: start, count: Int(sqlite3_column_bytes(handle, index))))
            default:
                digest.feedNull()
            }
        }
        return columns > 1 ? sqlite3_column_int64(handle, 1) : 0
    }
}
