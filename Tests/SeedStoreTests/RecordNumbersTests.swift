import Foundation
import SeedModel
import SeedgenTestSupport
import Testing
@testable import SeedStore

/// The record's entity numbers (`SEEDGEN_RENUMBERED`) written and read back: every map a
/// migration can write reads back as written, and every table that is not such a map is
/// refused, naming the table.
@Suite("Record entity numbers")
struct RecordNumbersTests {
    /// Four concrete entities (Cat and Dog under the abstract Animal) and an empty store file.
    static func setUp() throws -> (TemporaryDirectory, StoreLayout, Database) {
        let directory = try TemporaryDirectory()
        let model = try StoreFixture.model("""
            <entity name="Animal" isAbstract="YES"><attribute name="name" optional="YES" attributeType="String"/></entity>
            <entity name="Bird"><attribute name="wings" optional="YES" attributeType="Integer 16"/></entity>
            <entity name="Cat" parentEntity="Animal"/>
            <entity name="Dog" parentEntity="Animal"/>
            <entity name="Eel"><attribute name="length" optional="YES" attributeType="Double"/></entity>
            """, in: directory)
        let path = directory.path("numbers.sqlite")
        #expect(FileManager.default.createFile(atPath: path, contents: Data()), "an empty file is an empty database")
        return (directory, try StoreLayout(model: model), try Database(path: path, mode: .readWrite))
    }

    @Test("every map of some concrete entities to distinct numbers (1,045 of them) reads back as written; one that changes no number reads as the store's own")
    func everyMapReadsBack() throws {
        let (directory, layout, database) = try Self.setUp()
        defer { directory.remove() }
        let concrete = layout.entities.filter { !$0.isAbstract }.map(\.number)
        #expect(concrete.count == 4 && layout.entities.count == 5)
        // Recorded numbers from a pool larger than the entities: a removed entity's number may be one.
        let pool = Array(1...(concrete.count + 2))
        func maps(_ entities: ArraySlice<Int>, _ free: [Int]) -> [[Int: Int]] {
            guard let entity = entities.first else { return [[:]] }
            let rest = maps(entities.dropFirst(), free)
            var result = rest  // `entity` not listed
            for number in free {
                for map in maps(entities.dropFirst(), free.filter { $0 != number }) {
                    result.append(map.merging([entity: number]) { first, _ in first })
                }
            }
            return result
        }
        let all = maps(concrete[...], pool)
        #expect(all.count == 1_045)
        var identities = 0
        for map in all {
            let written = RecordNumbers(recordedByEntity: map)
            try written.write(in: database)
            let read = try RecordNumbers(in: database, layout: layout)
            #expect(read.recordedByEntity == written.recordedByEntity, "\(map)")
            if map.allSatisfy({ $0.key == $0.value }) {
                identities += 1
                let present = try SeedRecord.isPresent(RecordNumbers.table, in: database)
                #expect(read.recordedByEntity == nil && !present, "\(map): the store's own numbers, no table")
                continue
            }
            for entity in concrete {
                #expect(read.recorded(entity) == map[entity], "\(map): entity \(entity)")
                if let recorded = map[entity] { #expect(read.entity(recordedAs: recorded) == entity) }
            }
        }
        #expect(identities == 16, "each set of entities kept under their own numbers")
    }

    @Test("a table that is no such map is refused, naming the table: a number or entity that is no integer, an abstract or unknown entity, an entity or number twice, more rows than entities", arguments: [
        "('1', 2)", "(1, '2')", "(1.5, 2)", "(1, 2.0)", "(NULL, 2)", "(1, NULL)", "(x'01', 2)",
        "(1, 1)",  // Animal: abstract
        "(1, 9)", "(1, 0)", "(1, -2)",
        "(1, 2), (3, 2)", "(1, 2), (1, 3)",
        "(1, 2), (2, 3), (3, 4), (4, 5), (6, 2)",
    ])
    func damagedTablesAreRefused(_ rows: String) throws {
        let (directory, layout, database) = try Self.setUp()
        defer { directory.remove() }
        #expect(layout.entity(number: 1)?.isAbstract == true, "Animal is entity 1")
        try database.execute("CREATE TABLE \(RecordNumbers.table) (RECORDED, ENTITY); INSERT INTO \(RecordNumbers.table) VALUES \(rows)")
        #expect {
            _ = try RecordNumbers(in: database, layout: layout)
        } throws: { error in
            (error as? DamagedRecordError)?.table == RecordNumbers.table
        }
    }
}
