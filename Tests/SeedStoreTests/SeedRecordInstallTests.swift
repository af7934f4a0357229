import Foundation
import SeedModel
import SeedgenTestSupport
import Testing
@testable import SeedStore

/// The record written where it is needed: a seed carries none; an installed copy gets it before
/// it is put in place; an update makes the new seed's from its rows, the same way.
@Suite("Seed record at install")
struct SeedRecordInstallTests {
    /// A library seed of 40 authors and books (one link each), in `directory`.
    static func seed(in directory: TemporaryDirectory) throws -> (path: String, layout: StoreLayout) {
        let model = try StoreFixture.model(LibraryModel.entities, in: directory)
        let path = directory.path("seed.sqlite")
        try StoreFixture.build(model, at: path) { try LibraryModel.fill($0, order: Array(1...40)) }
        return (path, try StoreLayout(model: model))
    }

    @Test("an installed copy's full record holds every object and link, exactly as the update makes the seed's record from its rows; the metadata names the seed")
    func recordsTheCopy() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let (seed, layout) = try Self.seed(in: directory)
        let copy = try directory.copy(URL(fileURLWithPath: seed), as: "installed.sqlite")
        #expect(try SeedRecord.recordInstalledCopy(at: copy, packed: false) == .recorded(objects: 80))

        let database = try Database(path: copy, mode: .readOnly)
        #expect(try database.scalar("SELECT COUNT(*) FROM SEEDGEN_LINKED") == .integer(40))
        #expect(try database.scalar("SELECT COUNT(DISTINCT DIGEST) FROM SEEDGEN_SEEDED") == .integer(80))
        // The seed's record as an update makes it: the seed attached, named from its own tables.
        database.registerRowDigest()
        try database.run("ATTACH DATABASE ? AS seed", [.text(Database.uri(for: seed) + "?mode=ro&immutable=1")])
        let names = ObjectNames(layout: layout, buildKeys: [:], contentByDigest: true, schema: "seed")
        for entity in layout.entities where !entity.isAbstract {
            let rows = try #require(SeedRecord.recordRowsSQL(of: entity, names: names, identifiers: nil))
            let recorded = try database.rows("SELECT \(SeedRecord.recordRowsColumns) FROM SEEDGEN_SEEDED WHERE ENTITY = ? ORDER BY PK", [.integer(Int64(entity.number))])
            #expect(recorded.count == 40)
            #expect(try database.rows(rows) == recorded, "\(entity.name)")
        }
        let metadata = try StoreConnection.metadata(ofStoreAt: copy)
        let seeded = try StoreConnection.metadata(ofStoreAt: seed)
        #expect(metadata.seedDigest == seeded.contentDigest && metadata.seedDigest != nil)
        #expect(metadata.seal == nil && metadata.contentDigest == nil)
        #expect(metadata.differences(from: layout.model).isEmpty)
    }

    @Test("a copy that carries its record already (a seed an earlier seedgen built) is left byte for byte")
    func leavesACarriedRecord() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let (seed, _) = try Self.seed(in: directory)
        let copy = try directory.install(seed, as: "installed.sqlite")
        let before = try Data(contentsOf: URL(fileURLWithPath: copy))
        #expect(try SeedRecord.recordInstalledCopy(at: copy) == .carriedAlready)
        #expect(try Data(contentsOf: URL(fileURLWithPath: copy)) == before)
        #expect(!FileManager.default.fileExists(atPath: copy + "-journal"))
    }

    @Test("a copy without its model, none given: refused naming the copy and the model table, nothing written")
    func refusesWithoutAModel() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let (seed, layout) = try Self.seed(in: directory)
        let copy = try directory.copy(URL(fileURLWithPath: seed), as: "installed.sqlite")
        try Database(path: copy, mode: .readWrite).execute("DROP TABLE SEEDGEN_MODEL")
        let before = try Data(contentsOf: URL(fileURLWithPath: copy))
        #expect {
            try SeedRecord.recordInstalledCopy(at: copy)
        } throws: { error in
            "\(error)".contains(copy) && "\(error)".contains("SEEDGEN_MODEL")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: copy)) == before)
        // Given the layout, the same copy is recorded.
        #expect(try SeedRecord.recordInstalledCopy(at: copy, layout: layout) == .recorded(objects: 80))
    }
}
