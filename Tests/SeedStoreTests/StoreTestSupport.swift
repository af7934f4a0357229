import Foundation
import SeedModel
import SeedModelLoader
import SeedgenTestSupport
import Testing
@testable import SeedStore

/// Helpers shared by the store tests.
enum StoreTestSupport {
    /// A model read from a `contents` text.
    static func model(_ body: String, in directory: TemporaryDirectory) throws -> DataModel {
        let text = """
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" userDefinedModelVersionIdentifier="">
            \(body)
            </model>
            """
        return try ModelLoader.load(from: try directory.write(text, to: "model-\(UUID().uuidString)/contents"))
    }

    /// Builds an empty store for `model` at `path` and returns the build summary.
    @discardableResult
    static func build(_ model: DataModel, era: FrameworkEra = .newest, at path: String,
                      fill: ((Database) throws -> Void)? = nil) throws -> StoreBuilder.Summary {
        let builder = try StoreBuilder(layout: try StoreLayout(model: model, era: era), outputPath: path)
        if let fill { try fill(builder.database) }
        return try builder.finish()
    }

    /// `sqlite_master` as sorted "type|name|table|sql" lines, `Z_MODELCACHE` and autoindexes left out.
    /// A store's schema as Core Data's layout makes it: without `Z_MODELCACHE` (which seedgen
    /// does not write) and a seed's record and model (which Core Data does not: `SeedRecord`).
    static func schema(of path: String) throws -> [String] {
        let database = try Database(path: path, mode: .readOnly, immutable: true)
        return try database.rows("""
            SELECT type, name, tbl_name, sql FROM sqlite_master
            WHERE name NOT IN ('Z_MODELCACHE', ?, ?, ?) AND sql IS NOT NULL ORDER BY type, name
            """, [.text(SeedRecord.table), .text(SeedRecord.modelTable), .text(SeedRecord.linksTable)]).map { $0.map { $0.text ?? "" }.joined(separator: "|") }
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

/// Skips a test when the corpus is not on this machine, with a visible reason.
let corpusTrait = ConditionTrait.enabled(if: Corpus.isAvailable, Comment(rawValue: Corpus.skipMessage))
