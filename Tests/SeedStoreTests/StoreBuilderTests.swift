import Foundation
import SeedModel
import SeedgenTestSupport
import Testing
@testable import SeedStore

@Suite("Store builder")
struct StoreBuilderTests {
    @Test("the same model and rows give byte-identical files, whatever the insert order")
    func reproducible() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let model = try StoreFixture.model(LibraryModel.entities, in: directory)
        let first = try StoreFixture.build(model, at: directory.path("a.sqlite")) { try LibraryModel.fill($0, order: [1, 2, 3, 4]) }
        let second = try StoreFixture.build(model, at: directory.path("b.sqlite")) { try LibraryModel.fill($0, order: [4, 2, 3, 1]) }
        #expect(first.fileSHA256 == second.fileSHA256)
        #expect(try Data(contentsOf: URL(fileURLWithPath: first.path)) == Data(contentsOf: URL(fileURLWithPath: second.path)))
        let other = try StoreFixture.build(model, at: directory.path("c.sqlite")) { try LibraryModel.fill($0, order: [1, 2, 3]) }
        #expect(other.fileSHA256 != first.fileSHA256)
        #expect(first.rowCounts == ["Author": 4, "Book": 4])
    }

    @Test("pragmas, journal mode and Z_MAX are as Core Data keeps them; nothing is left beside the output")
    func fileFormat() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let model = try StoreFixture.model(LibraryModel.entities, in: directory)
        let path = directory.path("store.sqlite")
        try StoreFixture.build(model, at: path) { try LibraryModel.fill($0, order: [3, 7]) }
        #expect(StoreTestSupport.listing(directory.url).filter { !$0.hasPrefix("model-") } == ["store.sqlite"])
        let header = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)).prefix(100))
        #expect(header[18] == 1 && header[19] == 1, "rollback journal, not WAL")
        let database = try Database(path: path, mode: .readOnly)
        #expect(try database.scalar("PRAGMA page_size")?.integer == 4096)
        #expect(try database.scalar("PRAGMA auto_vacuum")?.integer == 2)
        #expect(try database.scalar("PRAGMA encoding")?.text == "UTF-8")
        #expect(try database.scalar("PRAGMA journal_mode")?.text == "delete")
        #expect(try database.rows("SELECT Z_ENT, Z_NAME, Z_SUPER, Z_MAX FROM Z_PRIMARYKEY ORDER BY Z_ENT") == [
            [.integer(1), .text("Author"), .integer(0), .integer(7)],
            [.integer(2), .text("Book"), .integer(0), .integer(7)],
        ])
    }

    @Test("Z_METADATA holds the model's hashes and the keys Core Data writes, readable by Foundation")
    func metadata() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let model = try StoreFixture.model(LibraryModel.entities, in: directory)
        let path = directory.path("store.sqlite")
        let summary = try StoreFixture.build(model, at: path)
        let row = try #require(try Database(path: path, mode: .readOnly).rows("SELECT Z_VERSION, Z_UUID, Z_PLIST FROM Z_METADATA").first)
        #expect(row[0] == .integer(1))
        let uuid = try #require(row[1].text)
        #expect(UUID(uuidString: uuid) != nil && uuid == uuid.uppercased())
        let plist = try #require(try PropertyListSerialization.propertyList(from: Data(row[2].blob ?? []), format: nil) as? [String: Any])
        let hashes = try #require(plist["NSStoreModelVersionHashes"] as? [String: Data])
        #expect(hashes.mapValues { [UInt8]($0) } == VersionHasher(model: model).entityHashes())
        #expect((plist["NSStoreModelVersionHashesVersion"] as? NSNumber)?.intValue == 3)
        #expect(plist["NSStoreModelVersionIdentifiers"] as? [String] == [""])
        #expect(plist["NSStoreType"] as? String == "SQLite")
        #expect(plist["_NSAutoVacuumLevel"] as? String == "2")
        #expect((plist["NSPersistenceFrameworkVersion"] as? NSNumber)?.intValue == 1327)
        #expect(plist["NSStoreModelVersionHashesDigest"] as? String == VersionHasher.hashesDigest(VersionHasher(model: model).entityHashes()))
        #expect(plist["NSStoreModelVersionChecksumKey"] as? String == VersionHasher.checksum(VersionHasher(model: model).entityHashes()))
        #expect(plist["org.seedgen.contentDigest"] as? String == summary.contentDigest)
        #expect(plist["org.seedgen.sourceDigest"] == nil, "the file depends on content only")
        #expect(plist["org.seedgen.generator"] as? String == StoreMetadata.generatorName)
        // The UUID follows the content: other rows, other UUID.
        let other = directory.path("other.sqlite")
        try StoreFixture.build(model, at: other) { try LibraryModel.fill($0, order: [1]) }
        #expect(try Database(path: other, mode: .readOnly).scalar("SELECT Z_UUID FROM Z_METADATA")?.text != uuid)
    }

    @Test("a build that fails leaves no file at the output and no temporary behind")
    func atomicOnFailure() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let model = try StoreFixture.model(LibraryModel.entities, in: directory)
        // A row that breaks the schema's primary key fails the build midway.
        #expect(throws: (any Error).self) {
            try StoreFixture.build(model, at: directory.path("store.sqlite")) { database in
                try LibraryModel.fill(database, order: [1, 1])
            }
        }
        #expect(StoreTestSupport.listing(directory.url).filter { !$0.hasPrefix("model-") }.isEmpty)
        // An existing file stays as it was when the rename cannot happen (the output is a folder).
        try FileManager.default.createDirectory(atPath: directory.path("taken.sqlite/inside"), withIntermediateDirectories: true)
        #expect(throws: (any Error).self) { try StoreFixture.build(model, at: directory.path("taken.sqlite")) }
        #expect(StoreTestSupport.listing(directory.url).filter { !$0.hasPrefix("model-") } == ["taken.sqlite"])
        // A missing directory is an error before anything is written.
        #expect(throws: DurableFile.Failure.self) { try StoreFixture.build(model, at: directory.path("missing/store.sqlite")) }
    }
}
