import SeedgenSQLite

extension Statement {
    /// Feeds the current row to a content digest: per column a type tag (0 null, 1 integer,
    /// 2 real, 3 text, 4 blob) and its bytes (integers and reals as 8 little-endian bytes;
    /// text and blobs after their length). Returns column 1 as an integer (`Z_ENT`).
    func feedRow(columns: Int, into digest: inout BufferedDigest) -> Int64 {
        for index in 0..<Int32(columns) {
            switch sqlite3_column_type(handle, index) {
            case SQLITE_INTEGER:
                digest.feed(tag: 1, UInt64(bitPattern: sqlite3_column_int64(handle, index)))
            case SQLITE_FLOAT:
                digest.feed(tag: 2, sqlite3_column_double(handle, index).bitPattern)
            case SQLITE_TEXT:
                let start = UnsafeRawPointer(sqlite3_column_text(handle, index))
                let count = Int(sqlite3_column_bytes(handle, index))
                digest.feed(byte: 3)
                digest.feed(count: count)
                digest.feed(UnsafeRawBufferPointer(start: start, count: count))
            case SQLITE_BLOB:
                let start = sqlite3_column_blob(handle, index)
                let count = Int(sqlite3_column_bytes(handle, index))
                digest.feed(byte: 4)
                digest.feed(count: count)
                digest.feed(UnsafeRawBufferPointer(start: start, count: count))
            default:
                digest.feed(byte: 0)
            }
        }
        return columns > 1 ? sqlite3_column_int64(handle, 1) : 0
    }
}
