import Foundation
import SeedModel
import SeedModelLoader
import SeedgenTestSupport
import Testing
@testable import SeedStore

/// Helpers shared by the store tests.
enum StoreTestSupport {
    /// `sqlite_master` as sorted "type|name|table|sql" lines, `Z_MODELCACHE` and autoindexes left out.
    /// A store's schema as Core Data's layout makes it: without `Z_MODELCACHE` (which seedgen
    /// does not write) and a seed's record and model (which Core Data does not: `SeedRecord`).
    static func schema(of path: String) throws -> [String] {
        let database = try Database(path: path, mode: .readOnly, immutable: true)
        return try database.rows("""
            SELECT type, name, tbl_name, sql FROM sqlite_master
            WHERE name NOT IN ('Z_MODELCACHE', ?, ?, ?, ?) AND sql IS NOT NULL ORDER BY type, name
            """, [.text(SeedRecord.table), .text(SeedRecord.modelTable), .text(SeedRecord.linksTable), .text(SeedRecord.identifiersTable)]).map { $0.map { $0.text ?? "" }.joined(separator: "|") }
    }

    /// Runs SQL against a store copy (never a corpus file) and closes it, so that a WAL-mode
    /// copy is checkpointed back into one file.
    static func damage(_ path: String, _ sql: String) throws {
        let database = try Database(path: path, mode: .readWrite)
        try database.execute(sql)
    }

    /// Sorted directory listing, to prove nothing was added or left behind.
    static func listing(_ directory: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).sorted()
    }
}
