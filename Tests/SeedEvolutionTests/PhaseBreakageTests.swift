import Foundation
import SeedModel
import SeedgenTestSupport
import Testing
@testable import SeedEvolution
import SeedStore

/// Each engine broken on purpose after one of its named phases (`afterPhase`): its own check
/// before `COMMIT` names what would have been lost, and the store keeps every byte.
@Suite("Engines broken on purpose")
struct PhaseBreakageTests {
    static func bytes(_ path: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path)) }

    // MARK: Update

    /// A store installed from a seed of 3 authors and 3 books, then used: the user added an
    /// author (`Z_PK` 4) and retitled book 1; and a newer seed that adds an author and a book.
    static func usedStore(in directory: TemporaryDirectory, used: Bool = true) throws -> (store: String, seed: String, layout: StoreLayout) {
        let model = try StoreFixture.model(LibraryModel.entities, in: directory)
        let layout = try StoreLayout(model: model)
        let store = directory.path("store.sqlite"), seed = directory.path("seed2.sqlite")
        try StoreFixture.build(model, at: store) { try LibraryModel.fill($0, order: [1, 2, 3]) }
        try StoreFixture.build(model, at: seed) { try LibraryModel.fill($0, order: [1, 2, 3, 5]) }
        _ = try SeedRecord.recordInstalledCopy(at: store)
        guard used else { return (store, seed, layout) }
        try StoreConnection(path: store, layout: layout).write { writer in
            try writer.insert("Author", ["name": .text("Mine")])
            try writer.update(ObjectID(entity: "Book", primaryKey: 1), ["title": .text("My title")])
        }
        // The user's author wrote book 2: a link of the user's.
        try SQLiteShell.execute("INSERT INTO Z_1BOOKS (Z_1AUTHORS, Z_2BOOKS) VALUES (4, 2)", on: store)
        return (store, seed, layout)
    }

    @Test("an update as it should be passes its own check: the seed's author and book added, the user's author and title kept")
    func updatePasses() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let (store, seed, layout) = try Self.usedStore(in: directory)
        let report = try SeedUpdater(storeAt: store, seedAt: seed, layout: layout).update()
        #expect(report.added.map(\.entity).sorted() == ["Author", "Book"])
        let database = try Database(path: store, mode: .readOnly)
        #expect(try database.scalar("SELECT ZTITLE FROM ZBOOK WHERE Z_PK = 1") == .text("My title"))
        #expect(try database.scalar("SELECT COUNT(*) FROM ZAUTHOR WHERE ZNAME = 'Mine'") == .integer(1))
    }

    @Test("a user's object holding the name of an object the new seed adds stays in its place, and is reported; with no object of the user's, the seed's is added")
    func usersObjectTakesThePlaceOfAnAddedOne() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let (store, _, layout) = try Self.usedStore(in: directory)
        let model = layout.model
        let seed = directory.path("seed-mine.sqlite")
        try StoreFixture.build(model, at: seed) { database in
            try LibraryModel.fill(database, order: [1, 2, 3])
            try database.execute("INSERT INTO ZAUTHOR (Z_PK, Z_ENT, Z_OPT, ZNAME) VALUES (4, 1, 1, 'Mine')")
        }
        let report = try SeedUpdater(storeAt: store, seedAt: seed, layout: layout).update()
        #expect(report.keptUserObject.map(\.entity) == ["Author"] && report.added.isEmpty, "\(report)")
        #expect(try Database(path: store, mode: .readOnly).scalar("SELECT COUNT(*) FROM ZAUTHOR WHERE ZNAME = 'Mine'") == .integer(1))
        // A store of the first seed, never used: the author comes as the seed's.
        let other = try TemporaryDirectory()
        defer { other.remove() }
        let (fresh, _, _) = try Self.usedStore(in: other, used: false)
        let added = try SeedUpdater(storeAt: fresh, seedAt: seed, layout: layout).update()
        #expect(added.added.map(\.entity) == ["Author"] && added.keptUserObject.isEmpty, "\(added)")
    }

    @Test("an update broken after a phase — the user's object deleted, the user's value overwritten, a row made beyond the report, a seed object left out, the user's link removed, a link to nothing made — is rolled back, naming it", arguments: [
        (UpdatePhase.insertAndChange, "DELETE FROM ZAUTHOR WHERE ZNAME = 'Mine'", "Author: 4 rows in the store, 3 after"),
        (UpdatePhase.insertAndChange, "UPDATE ZBOOK SET ZTITLE = 'Book 1' WHERE Z_PK = 1", "Book: 1 objects the user changed no longer hold the user's values"),
        (UpdatePhase.remove, "INSERT INTO ZBOOK (Z_PK, Z_ENT, Z_OPT, ZTITLE) VALUES (99, 2, 1, 'stray')", "Book: 1 objects added, 2 new rows"),
        (UpdatePhase.rewriteRecord, "DELETE FROM ZBOOK WHERE ZTITLE = 'Book 5'", "Book: 1 objects added, 0 new rows"),
        (UpdatePhase.insertAndChange, "DELETE FROM Z_1BOOKS WHERE Z_1AUTHORS = 4", "Author.books: 1 of the user's links gone"),
        (UpdatePhase.remove, "INSERT INTO Z_1BOOKS (Z_1AUTHORS, Z_2BOOKS) VALUES (5, 77)", "Author.books: 1 links to objects the store no longer holds"),
    ])
    func updateBroken(after phase: UpdatePhase, _ breakage: String, _ named: String) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let (store, seed, layout) = try Self.usedStore(in: directory)
        let before = try Self.bytes(store)
        var updater = SeedUpdater(storeAt: store, seedAt: seed, layout: layout)
        updater.afterPhase = { done, database in
            if done == phase { try database.execute(breakage) }
        }
        do {
            _ = try updater.update()
            Issue.record("\(breakage) after \(phase): not caught")
        } catch {
            guard case .notConserved(let lost) = error.reason else { Issue.record("\(error)"); return }
            #expect(lost.map(\.description).contains(named), "\(lost)")
            #expect(error.description.contains("it was rolled back, nothing was changed"))
        }
        #expect(try Self.bytes(store) == before)
    }

    @Test("the update's phases run in their named order, each once, the check last")
    func updatePhasesInOrder() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let (store, seed, layout) = try Self.usedStore(in: directory)
        let seen = Seen()
        var updater = SeedUpdater(storeAt: store, seedAt: seed, layout: layout)
        updater.afterPhase = { phase, _ in seen.append("\(phase)") }
        _ = try updater.update()
        #expect(seen.values == UpdatePhase.allCases.map { "\($0)" })
        #expect(UpdatePhase.allCases.last == .checkConservation)
    }

    @Test("the check before COMMIT cannot be skipped: a run whose count never ran is refused (it did nothing through an optional)")
    func checkWithoutCountRefuses() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let (store, _, layout) = try Self.usedStore(in: directory)
        let database = try Database(path: store, mode: .readWrite)
        let context = UpdateContext(database: database, store: layout, names: ObjectNames(layout: layout, buildKeys: [:], contentByDigest: true))
        var run = UpdateRun(context: context, path: store, seed: try StoreMetadata(decoding: try #require(try database.metadataRow()?.plist)))
        #expect {
            try run.perform(.checkConservation)
        } throws: { error in
            guard let error = error as? SeedUpdateError, case .notConserved(let findings) = error.reason else { return false }
            return findings == [.notCounted]
        }
    }

    // MARK: Migration

    /// People and passports, one-to-one: both sides hold a column.
    static let oneToOne = """
        <entity name="Person">
            <attribute name="name" optional="YES" attributeType="String"/>
            <relationship name="passport" optional="YES" maxCount="1" deleteRule="Nullify" destinationEntity="Passport" inverseName="holder" inverseEntity="Passport"/>
        </entity>
        <entity name="Passport">
            <attribute name="number" optional="YES" attributeType="String"/>
            <relationship name="holder" optional="YES" maxCount="1" deleteRule="Nullify" destinationEntity="Person" inverseName="passport" inverseEntity="Person"/>
        </entity>
        """

    @Test("a migration broken so that a one-to-one's two sides disagree (the counts all hold) is rolled back: verify's inverse check runs before COMMIT")
    func inversesDisagree() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let v1 = try StoreFixture.model(Self.oneToOne, in: directory)
        let v2 = try StoreFixture.model(Self.oneToOne.replacingOccurrences(of: #"<attribute name="name" optional="YES" attributeType="String"/>"#,
                                                                         with: #"<attribute name="name" optional="YES" attributeType="String"/><attribute name="age" optional="YES" attributeType="Integer 16"/>"#), in: directory)
        let path = directory.path("people.sqlite")
        try StoreFixture.build(v1, at: path)
        try StoreConnection(path: path, layout: try StoreLayout(model: v1)).write { writer in
            for index in 1...2 {
                let person = try writer.insert("Person", ["name": .text("P\(index)")])
                try writer.relate(person, "passport", to: try writer.insert("Passport", ["number": .text("N\(index)")]))
            }
        }
        let before = try Self.bytes(path)
        var migrator = StoreMigrator(storeAt: path, versions: ModelVersions(versions: [.init(name: "v1", model: v1), .init(name: "v2", model: v2)], current: .init(name: "v2", model: v2)))
        // Person 1 points at person 2's passport, and person 2 at person 1's: as many links as before.
        migrator.afterPhase = { phase, database in
            if phase == .copyRows { try database.execute("UPDATE ZPERSON SET ZPASSPORT = 3 - ZPASSPORT") }
        }
        do {
            _ = try migrator.migrate()
            Issue.record("not caught")
        } catch {
            guard case .notConserved(let lost) = error.reason else { Issue.record("\(error)"); return }
            #expect(lost.count == 1 && "\(lost[0])".hasPrefix("verify: inverse: ZPERSON.ZPASSPORT"), "\(lost)")
        }
        #expect(try Self.bytes(path) == before)
    }
}

/// What a phase hook saw, from a `@Sendable` closure.
final class Seen: @unchecked Sendable {
    private let lock = NSLock()
    private var seen: [String] = []
    func append(_ value: String) { lock.withLock { seen.append(value) } }
    var values: [String] { lock.withLock { seen } }
}
