import Foundation
import SeedModel
import SeedgenTestSupport
import Testing
@testable import SeedStore

/// `seedgen inspect`'s space line: the bytes each table takes with its indexes, and the seed
/// record's share, read from SQLite's `dbstat`.
@Suite("Store space")
struct StoreSpaceTests {
    @Test("a seed carries no record: of seedgen's tables only its model, whose pages are all it adds to Core Data's tables")
    func seedCarriesNoRecord() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let model = try StoreFixture.model(LibraryModel.entities, in: directory)
        let path = directory.path("library.sqlite")
        try StoreFixture.build(model, at: path) { try LibraryModel.fill($0, order: Array(1...300)) }
        let space = try #require(try StoreInspector.inspect(path).space)
        #expect(space.byTable.keys.filter { $0.hasPrefix("SEEDGEN_") } == [SeedRecord.modelTable], "\(space.byTable)")
        let modelBytes = try #require(try Database(path: path, mode: .readOnly).scalar("SELECT length(MODEL) FROM SEEDGEN_MODEL")?.integer)
        let page = Int(try Database(path: path, mode: .readOnly).scalar("PRAGMA page_size")?.integer ?? 0)
        // The model's JSON in as few pages as it fills (overflow pages hold a little less each).
        #expect(space.seedRecord == space.byTable[SeedRecord.modelTable] && space.seedRecord <= (Int(modelBytes) / (page - 8) + 2) * page)
    }

    @Test("an installed store's record is counted with its tables and indexes; without the record it is 0 and the total shrinks by it")
    func recordShare() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let model = try StoreFixture.model(LibraryModel.entities, in: directory)
        let seed = directory.path("library.sqlite")
        try StoreFixture.build(model, at: seed) { try LibraryModel.fill($0, order: Array(1...300)) }
        let path = try directory.install(seed, as: "installed.sqlite")
        let space = try #require(try StoreInspector.inspect(path).space)
        let page = Int(try Database(path: path, mode: .readOnly).scalar("PRAGMA page_size")?.integer ?? 0)
        #expect(space.byTable["SEEDGEN_PACKED", default: 0] >= page, "\(space.byTable)")
        #expect(space.seedRecord == SeedRecord.tables.reduce(0) { $0 + space.byTable[$1, default: 0] })
        #expect(space.total == space.byTable.values.reduce(0, +) && space.total > space.seedRecord)
        // Every page of the file is some table's, but the pointer maps auto-vacuum keeps (one
        // in every page_size / 5 + 1 pages after the first) and free ones (none here: recording
        // the seed only added pages).
        let reader = try Database(path: path, mode: .readOnly)
        let pages = Int(try reader.scalar("PRAGMA page_count")?.integer ?? 0)
        let maps = try reader.scalar("PRAGMA auto_vacuum")?.integer == 0 ? 0 : (pages - 1 + page / 5) / (page / 5 + 1)
        #expect(try reader.scalar("PRAGMA freelist_count") == .integer(0))
        #expect(space.total == (pages - maps) * page, "\(pages) pages, \(maps) pointer maps")

        let bare = directory.path("bare.sqlite")
        let database = try Database(path: path, mode: .readWrite)
        try database.execute("DROP TABLE SEEDGEN_PACKED; DROP TABLE SEEDGEN_MODEL; DROP TABLE SEEDGEN_LINKED")
        try database.run("VACUUM INTO ?", [.text(bare)])
        let without = try #require(try StoreInspector.inspect(bare).space)
        #expect(without.seedRecord == 0)
        #expect(without.total == space.total - space.seedRecord)
    }
}
