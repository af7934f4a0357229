import SeedModel
import SeedgenSQLite

/// One argument of `seedgen_digest` as the digest lays it out: its storage class (one byte),
/// then an integer's 8 bytes or a double's bits (big-endian), or text's and a blob's length
/// (8 bytes, big-endian) and bytes; NULL is its class byte alone.
struct RowDigestValue {
    let type: Int32
    /// The 8 bytes that follow the class byte, if any.
    private let word: UInt64?
    /// A text's or blob's bytes (empty for the other classes).
    private let bytes: UnsafeRawBufferPointer

    init(_ value: OpaquePointer?) {
        type = sqlite3_value_type(value)
        switch type {
        case SQLITE_INTEGER:
            word = UInt64(bitPattern: sqlite3_value_int64(value)).bigEndian
            bytes = UnsafeRawBufferPointer(start: nil, count: 0)
        case SQLITE_FLOAT:
            word = sqlite3_value_double(value).bitPattern.bigEndian
            bytes = UnsafeRawBufferPointer(start: nil, count: 0)
        case SQLITE_TEXT, SQLITE_BLOB:
            // The pointer first, then the length (SQLite's documented order).
            let start = type == SQLITE_TEXT ? UnsafeRawPointer(sqlite3_value_text(value)) : sqlite3_value_blob(value)
            bytes = UnsafeRawBufferPointer(start: start, count: start == nil ? 0 : Int(sqlite3_value_bytes(value)))
            word = UInt64(bytes.count).bigEndian
        default:
            word = nil
            bytes = UnsafeRawBufferPointer(start: nil, count: 0)
        }
    }

    /// The bytes the value takes in the digest's input.
    var encodedCount: Int { word == nil ? 1 : 9 + bytes.count }

    /// Writes the value at `offset` of `buffer` (which has `encodedCount` bytes from there);
    /// returns the offset after it.
    func encode(into buffer: UnsafeMutableRawBufferPointer, at offset: Int) -> Int {
        buffer[offset] = UInt8(truncatingIfNeeded: type)
        guard let word else { return offset + 1 }
        buffer.storeBytes(of: word, toByteOffset: offset + 1, as: UInt64.self)
        let start = offset + 9
        if !bytes.isEmpty { UnsafeMutableRawBufferPointer(rebasing: buffer[start..<start + bytes.count]).copyMemory(from: bytes) }
        return start + bytes.count
    }

    /// Feeds the value to `hasher` (for rows too long to lay out on the stack).
    func feed(_ hasher: inout SHA256) {
        withUnsafeBytes(of: UInt8(truncatingIfNeeded: type)) { hasher.update(bufferPointer: $0) }
        guard let word else { return }
        withUnsafeBytes(of: word) { hasher.update(bufferPointer: $0) }
        if !bytes.isEmpty { hasher.update(bufferPointer: bytes) }
    }
}
