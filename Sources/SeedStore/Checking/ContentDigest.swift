import Crypto
import Foundation

/// SHA-256 over a store's logical content: its schema text and every row of every table in a
/// canonical order and encoding, the `Z_METADATA` row left out (it holds the digest).
///
/// Independent of page layout and insert order, so `verify` and the installer can recompute
/// it from the file and catch an edited or damaged row.
enum ContentDigest {
    static func compute(_ database: Database) throws(SQLiteError) -> String {
        var hasher = SHA256()
        func feed(_ bytes: [UInt8]) { hasher.update(data: bytes) }
        func feed(_ text: String) { feed(Array(text.utf8) + [0]) }
        func feed(count: Int) { withUnsafeBytes(of: UInt64(count).littleEndian) { hasher.update(bufferPointer: $0) } }

        feed("seedgen-content-digest-1")
        let schema = try database.rows(
            "SELECT type, name, tbl_name, sql FROM sqlite_master WHERE sql IS NOT NULL ORDER BY type, name")
        for row in schema {
            feed("S")
            for value in row { feed(value.text ?? "") }
        }
        let tables = try database.rows(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name")
            .compactMap { $0.first?.text }
        for table in tables where table != "Z_METADATA" {
            let columns = try database.rows("SELECT name, pk FROM pragma_table_info(?) ORDER BY cid", [.text(table)])
            let keyColumns = columns.filter { ($0[1].integer ?? 0) > 0 }
                .sorted { ($0[1].integer ?? 0) < ($1[1].integer ?? 0) }
            let order = (keyColumns.isEmpty ? columns : keyColumns).compactMap { $0[0].text }.map(Database.quote)
            feed("T")
            feed(table)
            feed(count: columns.count)
            let statement = try database.prepare(
                "SELECT * FROM \(Database.quote(table)) ORDER BY \(order.joined(separator: ", "))")
            while try statement.step() {
                feed([0x52])  // "R"
                for index in 0..<columns.count {
                    switch statement.value(at: index) {
                    case .null: feed([0])
                    case .integer(let value): feed([1]); withUnsafeBytes(of: value.littleEndian) { hasher.update(bufferPointer: $0) }
                    case .real(let value): feed([2]); withUnsafeBytes(of: value.bitPattern.littleEndian) { hasher.update(bufferPointer: $0) }
                    case .text(let value): feed([3]); feed(count: value.utf8.count); feed(Array(value.utf8))
                    case .blob(let value): feed([4]); feed(count: value.count); feed(value)
                    }
                }
            }
        }
        return SourceDigest.hex(hasher)
    }
}
