import SeedModel
import SeedgenSQLite

/// `seedgen_digest(value, …)`: 16 bytes that change when any of the values changes, for the
/// seed record (`SeedRecord`): SHA-256, cut to 16 bytes, of each value's storage class and
/// exact bytes (an integer's 8 bytes, a double's bits, text's and a blob's length and bytes),
/// so `1` and `1.0`, `'a'` and `x'61'`, NFC and NFD all digest differently.
extension Database {
    /// The number of bytes `seedgen_digest` returns.
    package static let rowDigestLength = 16

    /// A row's values up to this many bytes are laid out on the stack and hashed at once;
    /// longer ones are fed to the hasher value by value.
    static let rowDigestStackBytes = 2048

    /// `seedgen_digest(…)` of `expressions`: over 100 of them, the digest of the digests of
    /// each 100 (SQLite takes at most 127 arguments to a function).
    package static func rowDigestSQL(_ expressions: [String]) -> String {
        guard expressions.count > 100 else { return "seedgen_digest(\(expressions.joined(separator: ", ")))" }
        return rowDigestSQL(stride(from: 0, to: expressions.count, by: 100).map {
            rowDigestSQL(Array(expressions[$0..<min($0 + 100, expressions.count)]))
        })
    }

    package func registerRowDigest() {
        sqlite3_create_function_v2(handle, "seedgen_digest", -1, SQLITE_UTF8 | SQLITE_DETERMINISTIC, nil, { context, count, arguments in
            let values = UnsafeBufferPointer(start: arguments, count: Int(count))
            var size = 0
            for value in values { size += RowDigestValue(value).encodedCount }
            if size <= Database.rowDigestStackBytes {
                withUnsafeTemporaryAllocation(byteCount: max(size, 1), alignment: 8) { buffer in
                    var offset = 0
                    for value in values { offset = RowDigestValue(value).encode(into: buffer, at: offset) }
                    // `update(bufferPointer:)`, not the generic `hash(data:)`: called across
                    // modules unspecialized, it looked up type metadata for each row (3% of an update).
                    var hasher = SHA256()
                    hasher.update(bufferPointer: UnsafeRawBufferPointer(rebasing: buffer[..<offset]))
                    Database.resultDigest(hasher.finalize(), context)
                }
            } else {
                var hasher = SHA256()
                for value in values { RowDigestValue(value).feed(&hasher) }
                Database.resultDigest(hasher.finalize(), context)
            }
        }, nil, nil, nil)
    }

    private static func resultDigest(_ digest: SHA256.Digest, _ context: OpaquePointer?) {
        digest.withUnsafeBytes { sqlite3_result_blob(context, $0.baseAddress, Int32(Database.rowDigestLength), SQLITE_TRANSIENT) }
    }
}
