import Foundation
import SeedModel
import SeedgenTestSupport
import Testing
@testable import SeedStore

@Suite("Store builder")
struct StoreBuilderTests {
    static let library = """
        <entity name="Author">
            <attribute name="name" attributeType="String"/>
            <relationship name="books" optional="YES" toMany="YES" destinationEntity="Book" inverseName="authors" inverseEntity="Book"/>
        </entity>
        <entity name="Book">
            <attribute name="title" attributeType="String"/>
            <relationship name="authors" optional="YES" toMany="YES" destinationEntity="Author" inverseName="books" inverseEntity="Author"/>
        </entity>
        """

    /// Inserts rows in the given order of primary keys.
    static func fill(_ database: Database, order: [Int]) throws {
        for pk in order {
            try database.execute("INSERT INTO ZAUTHOR (Z_PK, Z_ENT, Z_OPT, ZNAME) VALUES (\(pk), 1, 1, 'Author \(pk)')")
            try database.execute("INSERT INTO ZBOOK (Z_PK, Z_ENT, Z_OPT, ZTITLE) VALUES (\(pk), 2, 1, 'Book \(pk)')")
            try database.execute("INSERT INTO Z_1BOOKS (Z_1AUTHORS, Z_2BOOKS) VALUES (\(pk), \(pk))")
        }
    }

    @Test("the same model and rows give byte-identical files, whatever the insert order")
    func reproducible() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let model = try StoreTestSupport.model(Self.library, in: directory)
        let first = try StoreTestSupport.build(model, at: directory.path("a.sqlite")) { try Self.fill($0, order: [1, 2, 3, 4]) }
        let second = try StoreTestSupport.build(model, at: directory.path("b.sqlite")) { try Self.fill($0, order: [4, 2, 3, 1]) }
        #expect(first.fileSHA256 == second.fileSHA256)
        #expect(try Data(contentsOf: URL(fileURLWithPath: first.path)) == Data(contentsOf: URL(fileURLWithPath: second.path)))
        let other = try StoreTestSupport.build(model, at: directory.path("c.sqlite")) { try Self.fill($0, order: [1, 2, 3]) }
        #expect(other.fileSHA256 != first.fileSHA256)
        #expect(first.rowCounts == ["Author": 4, "Book": 4])
    }

    @Test("pragmas, journal mode and Z_MAX are as Core Data keeps them; nothing is left beside the output")
    func fileFormat() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let model = try StoreTestSupport.model(Self.library, in: directory)
        let path = directory.path("store.sqlite")
        try StoreTestSupport.build(model, at: path) { try Self.fill($0, order: [3, 7]) }
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
        let model = try StoreTestSupport.model(Self.library, in: directory)
        let path = directory.path("store.sqlite")
        let summary = try StoreTestSupport.build(model, at: path)
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
        try StoreTestSupport.build(model, at: other) { try Self.fill($0, order: [1]) }
        #expect(try Database(path: other, mode: .readOnly).scalar("SELECT Z_UUID FROM Z_METADATA")?.text != uuid)
    }

    @Test("a build that fails leaves no file at the output and no temporary behind")
    func atomicOnFailure() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let model = try StoreTestSupport.model(Self.library, in: directory)
        // A row that breaks the schema's primary key fails the build midway.
        #expect(throws: (any Error).self) {
            try StoreTestSupport.build(model, at: directory.path("store.sqlite")) { database in
                try Self.fill(database, order: [1, 1])
            }
        }
        #expect(StoreTestSupport.listing(directory.url).filter { !$0.hasPrefix("model-") }.isEmpty)
        // An existing file stays as it was when the rename cannot happen (the output is a folder).
        try FileManager.default.createDirectory(atPath: directory.path("taken.sqlite/inside"), withIntermediateDirectories: true)
        #expect(throws: (any Error).self) { try StoreTestSupport.build(model, at: directory.path("taken.sqlite")) }
        #expect(StoreTestSupport.listing(directory.url).filter { !$0.hasPrefix("model-") } == ["taken.sqlite"])
        // A missing directory is an error before anything is written.
        #expect(throws: DurableFile.Failure.self) { try StoreTestSupport.build(model, at: directory.path("missing/store.sqlite")) }
    }
}
