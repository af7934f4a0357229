import Foundation
import SeedModel
import SeedModelLoader
import SeedgenTestSupport
import Testing
@testable import SeedStore

@Suite("Layout against the corpus", corpusTrait)
struct CorpusLayoutTests {
    /// The framework that wrote a corpus store (`NSPersistenceFrameworkVersion` in its metadata).
    static func era(of store: Corpus.Store) throws -> FrameworkEra {
        let database = try Database(path: store.store.path, mode: .readOnly, immutable: true)
        let plist = try #require(try database.metadataRow()?.plist)
        return FrameworkEra(version: try #require(try StoreMetadata(decoding: plist).frameworkVersion))
    }

    @Test("an empty store built from each fresh corpus model, in the store's own framework era, has its exact schema", arguments: Corpus.freshStores)
    func schemaIsIdentical(_ store: Corpus.Store) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let model = try ModelLoader.load(from: store.model.path)
        let output = directory.path("built.sqlite")
        let era = try Self.era(of: store)
        try StoreFixture.build(model, era: era, at: output)
        let expected = try StoreTestSupport.schema(of: store.store.path)
        #expect(expected.count >= 3)
        #expect(try StoreTestSupport.schema(of: output) == expected, "\(era)")
        // Beside Core Data's layout, a seed holds one table of its own: its model (the record of
        // its objects and links is written when it is installed).
        let tables = { (path: String) in try Database(path: path, mode: .readOnly, immutable: true).rows("SELECT name FROM sqlite_master WHERE type = 'table'").compactMap { $0[0].text } }
        #expect(Set(try tables(output)).subtracting(try tables(store.store.path)) == [SeedRecord.modelTable])
        // The era is recorded, as Core Data records it.
        let built = try Database(path: output, mode: .readOnly, immutable: true).metadataRow()?.plist
        #expect(try StoreMetadata(decoding: try #require(built)).frameworkVersion == era.version)
    }

    @Test("the era rules matter: moody (637) in the newest layout, or xcserver (851) in 637's, is not the real schema",
          arguments: [("moody", FrameworkEra.newest), ("xcserver", FrameworkEra(version: 637))])
    func otherErasDiffer(_ name: String, _ era: FrameworkEra) throws {
        let store = try #require(Corpus.freshStores.first { $0.name == name })
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let output = directory.path("built.sqlite")
        try StoreFixture.build(try ModelLoader.load(from: store.model.path), era: era, at: output)
        #expect(try StoreTestSupport.schema(of: output) != StoreTestSupport.schema(of: store.store.path))
    }

    @Test("Z_PRIMARYKEY has the corpus store's Z_ENT, Z_NAME and Z_SUPER rows", arguments: Corpus.freshStores)
    func primaryKeyRows(_ store: Corpus.Store) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let output = directory.path("built.sqlite")
        try StoreFixture.build(try ModelLoader.load(from: store.model.path), era: try Self.era(of: store), at: output)
        let query = "SELECT Z_ENT, Z_NAME, Z_SUPER FROM Z_PRIMARYKEY ORDER BY Z_ENT"
        let expected = try Database(path: store.store.path, mode: .readOnly, immutable: true).rows(query)
        #expect(try Database(path: output, mode: .readOnly, immutable: true).rows(query) == expected)
    }

    @Test("every entity hash of bookmarks, moody, xcserver and wire (a real app's model with typeless transients) is the one its store records",
          arguments: Corpus.allStores.filter { ["bookmarks", "moody", "xcserver", "wire"].contains($0.name) })
    func hashesOfTheNewStores(_ store: Corpus.Store) throws {
        let model = try ModelLoader.load(from: store.model.path)
        let database = try Database(path: store.store.path, mode: .readOnly, immutable: true)
        let metadata = try StoreMetadata(decoding: try #require(try database.metadataRow()?.plist))
        #expect(!metadata.versionHashes.isEmpty)
        #expect(metadata.differences(from: model) == [])
    }

    @Test("the corpus stores keep auto_vacuum 2 and 4096-byte pages, as ours do", arguments: Corpus.allStores)
    func pragmas(_ store: Corpus.Store) throws {
        let database = try Database(path: store.store.path, mode: .readOnly, immutable: true)
        #expect(try database.scalar("PRAGMA auto_vacuum")?.integer == 2)
        #expect(try database.scalar("PRAGMA page_size")?.integer == 4096)
    }
}
