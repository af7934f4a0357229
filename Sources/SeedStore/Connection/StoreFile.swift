import Foundation

/// Read-only access to an existing store file (ours or one Core Data wrote), never changing it.
package struct StoreFile {
    let path: String
    package let database: Database

    /// One `Z_PRIMARYKEY` row.
    package struct PrimaryKeyRow: Sendable {
        package var number: Int
        package var name: String
        var superNumber: Int
        var max: Int
    }

    /// Why a store could not be opened at all.
    struct OpenError: Error, CustomStringConvertible {
        var description: String
    }

    /// Sidecar files whose presence means the main file alone is not the whole store.
    static func sidecars(of path: String) -> [String] {
        ["-wal", "-journal"].map { path + $0 }.filter { FileManager.default.fileExists(atPath: $0) }
    }

    /// Whether the rollback journal at `path` is hot, as SQLite decides before rolling one back:
    /// it is not empty and starts with the journal's magic number (a finished or never-synced
    /// journal has it zeroed).
    static func isHotJournal(_ path: String) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        return (try? handle.read(upToCount: journalMagic.count)).map { Array($0) == journalMagic } ?? false
    }

    /// Rolls back what a writer that died inside its transaction left: a `-journal` beside the
    /// store at `path`. Reading through a writer's connection makes SQLite roll it back (a
    /// reader's cannot), so that the store is wholly as it was before that write. Does nothing
    /// when there is no journal.
    package static func rollBackInterruptedWrite(at path: String, lockWait: Int32) throws {
        guard FileSystem.kind(of: path + "-journal") == .regular else { return }
        let database = try Database(path: path, mode: .readWrite)
        database.setBusyTimeout(milliseconds: lockWait)
        _ = try database.scalar("SELECT COUNT(*) FROM sqlite_master")
    }

    /// The first 8 bytes of a rollback journal's valid header.
    static let journalMagic: [UInt8] = [0xd9, 0xd5, 0x05, 0xf9, 0x20, 0xa1, 0x63, 0xd7]

    /// Opens read-only. Without sidecars the file is read as immutable, so that nothing
    /// (no `-shm`, no lock) is created beside it, even in a read-only directory.
    package init(path: String) throws {
        let kind = FileSystem.kind(of: path)
        if kind == .missing { throw OpenError(description: "\(path): no such store file") }
        if let what = kind.notAFile { throw OpenError(description: "\(path): \(what), not a store file") }
        guard FileManager.default.isReadableFile(atPath: path) else {
            throw OpenError(description: "\(path): not readable")
        }
        self.path = path
        self.database = try Database(path: path, mode: .readOnly, immutable: Self.sidecars(of: path).isEmpty)
        database.registerPredicateFunctions()
    }

    /// The store at `path`, open on `database` (a writer's connection, for what is read here).
    package init(path: String, database: Database) {
        self.path = path
        self.database = database
    }

    /// What every SQLite database file starts with.
    static let magic = Array("SQLite format 3\0".utf8)

    /// The first 100 bytes of the file (the SQLite header), or fewer for a short file.
    func header() -> [UInt8] {
        Self.header(of: path)
    }

    /// The first 100 bytes of the file at `path`, or fewer for a short file.
    package static func header(of path: String) -> [UInt8] {
        guard let handle = FileHandle(forReadingAtPath: path) else { return [] }
        defer { try? handle.close() }
        return [UInt8](handle.readData(ofLength: 100))
    }

    package func tableExists(_ name: String) throws(SQLiteError) -> Bool {
        try database.scalar("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", [.text(name)]) != nil
    }

    /// Column names and declared types, in table order.
    package func columns(of table: String) throws(SQLiteError) -> [(name: String, type: String)] {
        try database.rows("SELECT name, type FROM pragma_table_info(?) ORDER BY cid", [.text(table)])
            .map { ($0[0].text ?? "", $0[1].text ?? "") }
    }

    package func primaryKeyRows() throws(SQLiteError) -> [PrimaryKeyRow] {
        try database.rows("SELECT Z_ENT, Z_NAME, Z_SUPER, Z_MAX FROM Z_PRIMARYKEY ORDER BY Z_ENT").map {
            PrimaryKeyRow(number: Int($0[0].integer ?? -1), name: $0[1].text ?? "",
                          superNumber: Int($0[2].integer ?? 0), max: Int($0[3].integer ?? 0))
        }
    }

    /// The root table of each `Z_PRIMARYKEY` entity, derived from the `Z_SUPER` chain
    /// (`Z` + upper-cased root name), for stores read without a model.
    package static func tables(for rows: [PrimaryKeyRow]) -> [Int: String] {
        let byNumber = Dictionary(rows.map { ($0.number, $0) }, uniquingKeysWith: { first, _ in first })
        var result: [Int: String] = [:]
        for row in rows {
            var root = row
            var steps = 0
            while root.superNumber != 0, let parent = byNumber[root.superNumber], steps < rows.count {
                root = parent
                steps += 1
            }
            result[row.number] = "Z" + root.name.uppercased()
        }
        return result
    }
}
