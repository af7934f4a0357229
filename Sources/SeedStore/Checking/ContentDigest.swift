import Crypto
import Foundation

/// SHA-256 over a store's logical content: its schema text and every row of every table in a
/// canonical order and encoding, the `Z_METADATA` row left out (it holds the digest).
///
/// Independent of page layout and insert order, so `verify` and the installer can recompute
/// it from the file and catch an edited or damaged row.
enum ContentDigest {
    static func compute(_ database: Database) throws(SQLiteError) -> String {
        var digest = BufferedDigest()
        digest.feed("seedgen-content-digest-1")
        let schema = try database.rows(
            "SELECT type, name, tbl_name, sql FROM sqlite_master WHERE sql IS NOT NULL ORDER BY type, name")
        for row in schema {
            digest.feed("S")
            for value in row { digest.feed(value.text ?? "") }
        }
        let tables = try database.rows(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name")
            .compactMap { $0.first?.text }
        for table in tables where table != "Z_METADATA" {
            let columns = try database.rows("SELECT name, pk FROM pragma_table_info(?) ORDER BY cid", [.text(table)])
            let keyColumns = columns.filter { ($0[1].integer ?? 0) > 0 }
                .sorted { ($0[1].integer ?? 0) < ($1[1].integer ?? 0) }
            let order = (keyColumns.isEmpty ? columns : keyColumns).compactMap { $0[0].text }.map(Database.quote)
            digest.feed("T")
            digest.feed(table)
            digest.feed(count: columns.count)
            let statement = try database.prepare(
                "SELECT * FROM \(Database.quote(table)) ORDER BY \(order.joined(separator: ", "))")
            while try statement.step() {
                digest.feed(byte: 0x52)  // "R"
                for index in 0..<columns.count {
                    statement.withRawColumn(at: index) { type, bytes in
                        // Type tag (0 null, 1 integer, 2 real, 3 text, 4 blob), then the bytes;
                        // text and blobs carry their length first.
                        digest.feed(byte: UInt8(type == 5 ? 0 : type))
                        if type == 3 || type == 4 { digest.feed(count: bytes.count) }
                        digest.feed(bytes)
                    }
                }
            }
        }
        return digest.finalize()
    }
}

/// SHA-256 fed through a 64 KiB buffer: one `update` per buffer instead of one per value.
private struct BufferedDigest {
    private var hasher = SHA256()
    private var buffer: [UInt8] = []

    init() {
        buffer.reserveCapacity(1 << 16)
    }

    mutating func feed(_ bytes: UnsafeRawBufferPointer) {
        buffer.append(contentsOf: bytes)
        if buffer.count >= 1 << 16 { flush() }
    }

    mutating func feed(byte: UInt8) {
        buffer.append(byte)
    }

    mutating func feed(count: Int) {
        withUnsafeBytes(of: UInt64(count).littleEndian) { feed($0) }
    }

    /// A string and a terminating zero.
    mutating func feed(_ text: String) {
        buffer.append(contentsOf: text.utf8)
        buffer.append(0)
    }

    private mutating func flush() {
        hasher.update(data: buffer)
        buffer.removeAll(keepingCapacity: true)
    }

    mutating func finalize() -> String {
        flush()
        return SourceDigest.hex(hasher)
    }
}
