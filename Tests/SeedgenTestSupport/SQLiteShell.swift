import Foundation
import SeedStore
import SeedgenSQLite

/// Queries a store read-only and renders rows as the `sqlite3` shell does (`a|b|c`, NULL
/// empty), without needing that shell on the machine.
public enum SQLiteShell {
    /// The rows of `sql` on the store at `path`, one `|`-separated line each.
    public static func rows(_ path: String, _ sql: String) throws -> [String] {
        var lines: [String] = []
        try StoreReader(path: path).forEachRow(sql) { row in
            lines.append(row.map { value -> String in
                switch value {
                case .null: ""
                case .integer(let number): String(number)
                case .real(let number): "\(number)"
                case .text(let text): text
                case .blob(let bytes): bytes.map { String($0, radix: 16) }.joined()
                }
            }.joined(separator: "|"))
        }
        return lines
    }
}

extension SQLiteShell {
    /// Runs statements on the store at `path` behind seedgen's back, the way damage or another
    /// tool would change it (with SQLite's C API: the tests never use seedgen's writers for this).
    public static func execute(_ sql: String, on path: String) throws {
        var handle: OpaquePointer?
        defer { sqlite3_close_v2(handle) }
        guard sqlite3_open_v2(path, &handle, SQLITE_OPEN_READWRITE, nil) == SQLITE_OK else {
            throw ShellError(message: "cannot open \(path)")
        }
        var message: UnsafeMutablePointer<CChar>?
        guard sqlite3_exec(handle, sql, nil, nil, &message) == SQLITE_OK else {
            defer { sqlite3_free(message) }
            throw ShellError(message: message.map { String(cString: $0) } ?? "failed: \(sql)")
        }
    }

    /// A failed `execute`.
    public struct ShellError: Error, CustomStringConvertible {
        public var message: String
        public var description: String { message }
    }

    /// The bytes of a store's `Z_METADATA.Z_PLIST` (for `StoreMetadata(decoding:)`).
    public static func metadataPlist(of path: String) throws -> [UInt8] {
        let hex = try rows(path, "SELECT hex(Z_PLIST) FROM Z_METADATA").first ?? ""
        return stride(from: 0, to: hex.count, by: 2).map { UInt8(hex.dropFirst($0).prefix(2), radix: 16)! }
    }

    /// `X'…'`: bytes as an SQL blob literal.
    public static func blobLiteral(_ bytes: [UInt8]) -> String {
        "X'" + bytes.map { String(format: "%02X", $0) }.joined() + "'"
    }
}

extension SQLiteShell {
    /// Leaves the store at `path` as a writer killed inside its transaction leaves it: `sql`
    /// run in a transaction whose changed pages spilled into the file, the hot `-journal` beside
    /// it, and no commit (the files are copied while the transaction is open, then put back).
    public static func interruptWrite(_ sql: String, on path: String) throws {
        var handle: OpaquePointer?
        defer { sqlite3_close_v2(handle) }
        guard sqlite3_open_v2(path, &handle, SQLITE_OPEN_READWRITE, nil) == SQLITE_OK,
              sqlite3_exec(handle, "PRAGMA journal_mode = DELETE; PRAGMA cache_size = 1; PRAGMA cache_spill = 1; BEGIN IMMEDIATE; \(sql)", nil, nil, nil) == SQLITE_OK,
              // A megabyte more, so that the changed pages spill into the file (its journal synced first).
              sqlite3_exec(handle, "CREATE TABLE seedgen_interrupted (x); INSERT INTO seedgen_interrupted VALUES (zeroblob(1048576))", nil, nil, nil) == SQLITE_OK else {
            throw ShellError(message: "cannot start a write on \(path)")
        }
        // What a kill leaves: the file and the journal as they are now.
        let file = try Data(contentsOf: URL(fileURLWithPath: path)), journal = try Data(contentsOf: URL(fileURLWithPath: path + "-journal"))
        sqlite3_exec(handle, "ROLLBACK", nil, nil, nil)
        sqlite3_close_v2(handle)
        handle = nil
        try file.write(to: URL(fileURLWithPath: path))
        try journal.write(to: URL(fileURLWithPath: path + "-journal"))
    }
}
