import Crypto
import Foundation

/// SHA-256 over a store's logical content: its schema text and every row of every table in a
/// canonical order and encoding, the `Z_METADATA` row left out (it holds the digest).
///
/// Independent of page layout and insert order, so `verify` and the installer can recompute
/// it from the file and catch an edited or damaged row.
enum ContentDigest {
    /// The digest, and the rows of each entity number (counted on the way).
    struct Summary: Sendable {
        var digest: String
        var rowsByEntity: [Int: Int]
    }

    static func compute(_ database: Database) throws(SQLiteError) -> String {
        try summarize(database).digest
    }

    static func summarize(_ database: Database) throws(SQLiteError) -> Summary {
        var rowsByEntity: [Int: Int] = [:]
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
            let isEntityTable = columns.count >= 2 && columns[0][0].text == "Z_PK" && columns[1][0].text == "Z_ENT"
            digest.feed("T")
            digest.feed(table)
            digest.feed(count: columns.count)
            let statement = try database.prepare(
                "SELECT * FROM \(Database.quote(table)) ORDER BY \(order.joined(separator: ", "))")
            while try statement.step() {
                digest.feed(byte: 0x52)  // "R"
                let entity = statement.feedRow(columns: columns.count, into: &digest)
                if isEntityTable { rowsByEntity[Int(entity), default: 0] += 1 }
            }
        }
        return Summary(digest: digest.finalize(), rowsByEntity: rowsByEntity)
    }

    /// Computes a summary on its own connection and thread, while the caller does other work.
    final class Job: @unchecked Sendable {
        private let path: String
        private let done = DispatchSemaphore(value: 0)
        private var result: Result<Summary, Error>?

        init(path: String) {
            self.path = path
        }

        func start() {
            Thread.detachNewThread { [self] in
                result = Result { try ContentDigest.summarize(Database(path: path, mode: .readOnly)) }
                done.signal()
            }
        }

        /// The summary, once the job is done (waits for it; call once).
        func wait() throws -> Summary {
            done.wait()
            done.signal()  // a second wait returns at once
            return try result!.get()
        }
    }
}

/// SHA-256 fed through a 256 KiB raw buffer: one `update` per buffer instead of one per value.
struct BufferedDigest: ~Copyable {
    private var hasher = SHA256()
    private let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 18, alignment: 8)
    private var count = 0

    deinit {
        buffer.deallocate()
    }

    /// Makes room for `needed` bytes, flushing when the buffer would overflow.
    private mutating func reserve(_ needed: Int) {
        if count + needed > buffer.count { flush() }
    }

    mutating func feed(_ bytes: UnsafeRawBufferPointer) {
        if bytes.count > buffer.count / 2 {
            flush()
            hasher.update(bufferPointer: bytes)
            return
        }
        reserve(bytes.count)
        if let base = bytes.baseAddress, !bytes.isEmpty {
            (buffer.baseAddress! + count).copyMemory(from: base, byteCount: bytes.count)
        }
        count += bytes.count
    }

    mutating func feed(byte: UInt8) {
        reserve(1)
        buffer[count] = byte
        count += 1
    }

    /// A tag byte and 8 little-endian bytes.
    mutating func feed(tag: UInt8, _ value: UInt64) {
        reserve(9)
        buffer[count] = tag
        (buffer.baseAddress! + count + 1).storeBytes(of: value.littleEndian, as: UInt64.self)
        count += 9
    }

    mutating func feed(count value: Int) {
        reserve(8)
        (buffer.baseAddress! + count).storeBytes(of: UInt64(value).littleEndian, as: UInt64.self)
        count += 8
    }

    /// A string and a terminating zero.
    mutating func feed(_ text: String) {
        var text = text
        text.withUTF8 { feed(UnsafeRawBufferPointer($0)) }
        feed(byte: 0)
    }

    private mutating func flush() {
        hasher.update(bufferPointer: UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
        count = 0
    }

    consuming func finalize() -> String {
        flush()
        return SourceDigest.hex(hasher)
    }
}
