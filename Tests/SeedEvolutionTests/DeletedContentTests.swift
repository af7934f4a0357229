import Foundation
import SeedModelLoader
import SeedStore
import SeedgenTestSupport
import Testing
@testable import SeedEvolution

/// What a migration or an update deletes does not stay in the store's file: the deleted rows'
/// and columns' values are zeroed in the pages written anyway (`secure_delete = FAST` on the
/// durable writer), and the pages the deletion freed are moved over or cut off by the
/// incremental vacuum in the same transaction, so that no kill leaves them committed. Read from
/// the file's bytes.
@Suite("Deleted content leaves the file")
struct DeletedContentTests {
    /// How often `text` occurs in the file at `path` (its -journal absent).
    static func occurrences(of text: String, in path: String) throws -> Int {
        #expect(!FileManager.default.fileExists(atPath: path + "-journal"))
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path)), needle = Data(text.utf8)
        var count = 0, start = bytes.startIndex
        while let found = bytes.range(of: needle, in: start..<bytes.endIndex) {
            count += 1
            start = found.upperBound
        }
        return count
    }

    /// The file change counter (header bytes 24-27), which each committed transaction of a
    /// store in rollback-journal mode moves by one.
    static func changeCounter(of path: String) throws -> UInt32 {
        try Data(contentsOf: URL(fileURLWithPath: path))[24..<28].reduce(0) { $0 << 8 | UInt32($1) }
    }

    @Test("a migration that rebuilds a table and drops a column and an entity: the dropped values and rows are nowhere in the file, the kept ones are; one transaction gave the pages back")
    func migrationLeavesNoDroppedValue() throws {
        let data = ClubModels.clubsData.replacingOccurrences(of: #"city="Linz""#, with: #"city="Atlantis-7f3c""#)
            .replacingOccurrences(of: #"<Referee name="R"/>"#, with: #"<Referee name="Refq-9z"/>"#)
        let (directory, bundle, store) = try ClubModels.installedStore(data: data)
        defer { directory.remove() }
        #expect(try Self.occurrences(of: "Atlantis-7f3c", in: store) > 0 && Self.occurrences(of: "Refq-9z", in: store) > 0)
        let counter = try Self.changeCounter(of: store)
        let report = try StoreMigrator(storeAt: store, versions: try ModelLoader.loadVersions(from: bundle)).migrate()
        #expect(report.migrated && Set(report.assessment.removals.map(\.count)) == [1])
        // One transaction: the freed pages were not committed before the vacuum gave them back
        // (a kill between the two would have left the dropped values in them).
        #expect(try Self.changeCounter(of: store) == counter + 1)
        #expect(try Self.occurrences(of: "Atlantis-7f3c", in: store) == 0)
        #expect(try Self.occurrences(of: "Refq-9z", in: store) == 0)
        #expect(try Self.occurrences(of: "Wels", in: store) > 0, "a kept value is still there")
        #expect(try SQLiteShell.rows(store, "PRAGMA freelist_count") == ["0"])
    }

    @Test("an update that removes objects the new seed no longer holds: their values are nowhere in the file; one transaction gave the pages back")
    func updateLeavesNoRemovedObject() throws {
        let directory = try ShelfModel.setUp()
        defer { directory.remove() }
        let distinct = { (source: String) in source.replacingOccurrences(of: "Three", with: "Thr33-gone-Qx").replacingOccurrences(of: "Bob", with: "Quuxbert-9") }
        let seed1 = try ShelfModel.build(distinct(ShelfModel.v1), as: "v1", in: directory)
        let seed2 = try ShelfModel.build(distinct(ShelfModel.v2), as: "v2", in: directory)
        let store = try directory.install(seed1, as: "installed.sqlite")
        // In the rows, and a name in its uniqueness constraint's index too.
        #expect(try Self.occurrences(of: "Thr33-gone-Qx", in: store) > 0 && Self.occurrences(of: "Quuxbert-9", in: store) > 0)
        let counter = try Self.changeCounter(of: store)
        let report = try SeedUpdater(storeAt: store, seedAt: seed2, layout: try StoreLayout(model: try ModelLoader.load(from: directory.path("Shelf.xcdatamodel")))).update()
        #expect(Set(report.removed.map(\.entity)) == ["Author", "Book"], "\(report)")
        #expect(try Self.changeCounter(of: store) == counter + 1, "one transaction")
        #expect(try Self.occurrences(of: "Thr33-gone-Qx", in: store) == 0)
        #expect(try Self.occurrences(of: "Quuxbert-9", in: store) == 0)
        #expect(try SQLiteShell.rows(store, "PRAGMA freelist_count") == ["0"])
    }
}
