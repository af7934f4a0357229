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
}
