import Foundation
import SeedModel
import SeedgenTestSupport
import Testing
@testable import SeedStore

@Suite("Layout against the corpus", corpusTrait)
struct CorpusLayoutTests {
    @Test("an empty store built from each corpus model has the corpus store's exact schema", arguments: Corpus.stores)
    func schemaIsIdentical(_ store: Corpus.Store) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let model = try ModelLoader.load(from: store.model.path)
        let output = directory.path("built.sqlite")
        try StoreTestSupport.build(model, at: output)
        let expected = try StoreTestSupport.schema(of: store.store.path)
        #expect(expected.count >= 3)
        #expect(try StoreTestSupport.schema(of: output) == expected)
    }

    @Test("Z_PRIMARYKEY has the corpus store's Z_ENT, Z_NAME and Z_SUPER rows", arguments: Corpus.stores)
    func primaryKeyRows(_ store: Corpus.Store) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let output = directory.path("built.sqlite")
        try StoreTestSupport.build(try ModelLoader.load(from: store.model.path), at: output)
        let query = "SELECT Z_ENT, Z_NAME, Z_SUPER FROM Z_PRIMARYKEY ORDER BY Z_ENT"
        let expected = try Database(path: store.store.path, mode: .readOnly, immutable: true).rows(query)
        #expect(try Database(path: output, mode: .readOnly, immutable: true).rows(query) == expected)
    }

    @Test("the corpus stores keep auto_vacuum 2 and 4096-byte pages, as ours do", arguments: Corpus.stores)
    func pragmas(_ store: Corpus.Store) throws {
        let database = try Database(path: store.store.path, mode: .readOnly, immutable: true)
        #expect(try database.scalar("PRAGMA auto_vacuum")?.integer == 2)
        #expect(try database.scalar("PRAGMA page_size")?.integer == 4096)
    }
}
