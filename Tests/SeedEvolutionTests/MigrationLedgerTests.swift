import Foundation
import SeedModel
import SeedgenTestSupport
import Testing
@testable import SeedEvolution
import SeedStore

/// The migration's own check before its commit (`MigrationLedger`), at the engine's level: it
/// counts a real store's rows and links, passes a result that holds them all, and names what a
/// broken engine lost.
@Suite("Migration ledger")
struct MigrationLedgerTests {
    /// A store of `LibraryModel.entities` with 3 authors, 3 books and 3 links, and its layout.
    static func store(in directory: TemporaryDirectory) throws -> (path: String, layout: StoreLayout, plan: MigrationPlan) {
        let model = try StoreFixture.model(LibraryModel.entities, in: directory)
        let path = directory.path("library.sqlite")
        try StoreFixture.build(model, at: path) { try LibraryModel.fill($0, order: [1, 2, 3]) }
        let version = ModelVersions.Version(name: "v1", model: model)
        return (path, try StoreLayout(model: model), MigrationPlan(from: version, to: version))
    }

    @Test("the counts of a store: each entity's rows, each relationship's links from both sides; a result that holds them passes")
    func countsAndPasses() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let (path, layout, plan) = try Self.store(in: directory)
        let database = try Database(path: path, mode: .readWrite)
        let ledger = try MigrationLedger(counting: database, plan: plan, source: layout, destination: layout.model)
        #expect(ledger.expected == [.rows(entity: "Author"): 3, .rows(entity: "Book"): 3,
                                    .links(entity: "Author", relationship: "books"): 3, .links(entity: "Book", relationship: "authors"): 3])
        #expect(ledger.removals.isEmpty)
        try ledger.requireConserved(in: database, plan: plan, destination: layout, written: Set(layout.tables.map(\.name)), path: path)
    }

    @Test("an engine broken on purpose — a row dropped, a link dropped — is caught, each named with both counts", arguments: [
        ("DELETE FROM ZBOOK WHERE Z_PK = 3", ["Book: 3 rows in the store, 2 after"]),
        ("DELETE FROM Z_1BOOKS WHERE Z_1AUTHORS = 2", ["Author.books: 3 links in the store, 2 after", "Book.authors: 3 links in the store, 2 after"]),
        ("UPDATE ZAUTHOR SET Z_ENT = 2 WHERE Z_PK = 1", ["Author: 3 rows in the store, 2 after"]),
    ])
    func catchesLosses(_ breakage: String, _ named: [String]) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let (path, layout, plan) = try Self.store(in: directory)
        let database = try Database(path: path, mode: .readWrite)
        let ledger = try MigrationLedger(counting: database, plan: plan, source: layout, destination: layout.model)
        try database.execute(breakage)
        do {
            try ledger.requireConserved(in: database, plan: plan, destination: layout, written: Set(layout.tables.map(\.name)), path: path)
            Issue.record("\(breakage): not caught")
        } catch let error as MigrationError {
            guard case .notConserved(let lost) = error.reason else { Issue.record("\(error)"); return }
            for line in named { #expect(lost.map(\.description).contains(line), "\(line) in \(lost)") }
            #expect(error.description.contains("it was rolled back, nothing was changed"))
        }
    }

    @Test("a row of no entity of its table (another's Z_ENT, NULL) and a row of an abstract entity are found by the count, from the rows or the indexes; a table of its entities' rows is known", arguments: [false, true])
    func rowsOfNoEntity(_ readingRows: Bool) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let model = try StoreFixture.model("""
            <entity name="Human" isAbstract="YES"><attribute name="name" optional="YES" attributeType="String"/></entity>
            <entity name="Player" parentEntity="Human"/>
            <entity name="Stadium"><attribute name="name" optional="YES" attributeType="String"/></entity>
            """, in: directory)
        let layout = try StoreLayout(model: model)
        let path = directory.path("sport.sqlite")
        _ = try StoreFixture.build(model, at: path)
        let human = try #require(layout.entity(named: "Human")), player = try #require(layout.entity(named: "Player")), stadium = try #require(layout.entity(named: "Stadium"))
        let database = try Database(path: path, mode: .readWrite)
        try database.execute("""
            INSERT INTO \(player.table) (Z_PK, Z_ENT, Z_OPT) VALUES (1, \(player.number), 1);
            INSERT INTO \(stadium.table) (Z_PK, Z_ENT, Z_OPT) VALUES (1, \(stadium.number), 1), (2, \(stadium.number), 1)
            """)
        let clean = try MigrationLedger.Tally(of: layout, in: database, readingRows: readingRows)
        #expect(clean.tablesOfKnownEntities(in: layout) == [human.table, stadium.table])
        #expect(clean.rowsOfNoEntity(in: human.table) == 0 && clean.rowsOfNoEntity(in: stadium.table) == 0)

        try database.execute("""
            INSERT INTO \(stadium.table) (Z_PK, Z_ENT, Z_OPT) VALUES (3, \(player.number), 1);
            INSERT INTO \(human.table) (Z_PK, Z_ENT, Z_OPT) VALUES (2, NULL, 1), (3, \(human.number), 1)
            """)
        let tally = try MigrationLedger.Tally(of: layout, in: database, readingRows: readingRows)
        #expect(tally.rowsOfNoEntity(in: stadium.table) == 1, "another table's entity")
        #expect(tally.rowsOfNoEntity(in: human.table) == 1, "NULL; the abstract entity's row is one of the table's")
        #expect(tally.tablesOfKnownEntities(in: layout).isEmpty, "the abstract entity's row keeps its table from being known")
        let plan = MigrationPlan(from: ModelVersions.Version(name: "v1", model: model), to: ModelVersions.Version(name: "v1", model: model))
        let ledger = try MigrationLedger(counting: database, plan: plan, source: layout, destination: model)
        #expect(Set(ledger.tablesWithRowsOfNoEntity) == [human.table, stadium.table])
        // The migration's refusal names one such row (inside its transaction, before a write).
        #expect {
            try StoreContents(database: database, path: path, layout: layout).requireKnownEntities(in: stadium.table)
        } throws: { error in
            "\(error)".contains("holds a row of \(stadium.table) (Z_PK 3) whose Z_ENT \(player.number) is no entity of that table")
        }
        // The check before commit reads the entity numbers of a table the count did not show known.
        let findings = try StoreVerifier.structuralFindings(in: database, path: path, layout: layout, written: nil,
                                                            entityNumbersCounted: tally.tablesOfKnownEntities(in: layout))
        #expect(findings.filter { $0.check == "row-entity" }.map(\.location).sorted() == ["table \(human.table)", "table \(human.table)", "table \(stadium.table)"].sorted(),
                "\(findings)")
    }
}
