import Crypto
import SeedgenSQLite

/// `seedgen_digest(value, …)`: 16 bytes that change when any of the values changes, for the
/// seed record (`SeedRecord`): SHA-256, cut to 16 bytes, of each value's storage class and
/// exact bytes (an integer's 8 bytes, a double's bits, text's and a blob's length and bytes),
/// so `1` and `1.0`, `'a'` and `x'61'`, NFC and NFD all digest differently.
extension Database {
    /// The number of bytes `seedgen_digest` returns.
    static let rowDigestLength = 16

    /// `seedgen_digest(…)` of `expressions`: over 100 of them, the digest of the digests of
    /// each 100 (SQLite takes at most 127 arguments to a function).
    static func rowDigestSQL(_ expressions: [String]) -> String {
        guard expressions.count > 100 else { return "seedgen_digest(\(expressions.joined(separator: ", ")))" }
        return rowDigestSQL(stride(from: 0, to: expressions.count, by: 100).map {
            rowDigestSQL(Array(expressions[$0..<min($0 + 100, expressions.count)]))
        })
    }

    func registerRowDigest() {
        sqlite3_create_function_v2(handle, "seedgen_digest", -1, SQLITE_UTF8 | SQLITE_DETERMINISTIC, nil, { context, count, arguments in
            var hasher = SHA256()
            for index in 0..<Int(count) {
                let value = arguments?[index]
                let type = sqlite3_value_type(value)
                hasher.update(data: [UInt8(truncatingIfNeeded: type)])
                switch type {
                case SQLITE_INTEGER:
                    withUnsafeBytes(of: sqlite3_value_int64(value).bigEndian) { hasher.update(bufferPointer: $0) }
                case SQLITE_FLOAT:
                    withUnsafeBytes(of: sqlite3_value_double(value).bitPattern.bigEndian) { hasher.update(bufferPointer: $0) }
                case SQLITE_TEXT, SQLITE_BLOB:
                    // The pointer first, then the length (SQLite's documented order).
                    let bytes = type == SQLITE_TEXT ? UnsafeRawPointer(sqlite3_value_text(value)) : sqlite3_value_blob(value)
                    let length = Int(sqlite3_value_bytes(value))
                    withUnsafeBytes(of: UInt64(length).bigEndian) { hasher.update(bufferPointer: $0) }
                    if let bytes, length > 0 { hasher.update(bufferPointer: UnsafeRawBufferPointer(start: bytes, count: length)) }
                default:
                    break
                }
            }
            let digest = Array(hasher.finalize().prefix(Database.rowDigestLength))
            digest.withUnsafeBytes { sqlite3_result_blob(context, $0.baseAddress, Int32($0.count), SQLITE_TRANSIENT) }
        }, nil, nil, nil)
    }
}
