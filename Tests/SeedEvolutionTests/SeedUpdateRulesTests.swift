import Foundation
import SeedModel
import SeedModelLoader
import SeedgenTestSupport
import Testing
@testable import SeedEvolution
import SeedStore

/// The update's rules, read from `SeedUpdater`'s report and the store's rows: a store installed
/// from seed 1 of `ShelfModel` (a copy that records the seed, as `seedgen install` and the
/// runtime make it), changed as its app would change it (SQL on the copy: a user's values, a
/// user's own object and link), brought to seed 2 and seed 3. (`seedgen update`'s words and
/// exit statuses are the command line's tests.)
@Suite("Seed update rules")
struct SeedUpdateRulesTests {
    /// The update of `store` to `seed`, of the model `directory` holds.
    static func update(_ store: String, to seed: String, _ directory: TemporaryDirectory) throws -> SeedUpdateReport {
        try SeedUpdater(storeAt: store, seedAt: seed, layout: try StoreLayout(model: try ModelLoader.load(from: directory.path("Shelf.xcdatamodel")))).update()
    }

    /// What `verify` finds wrong with the store against the model `directory` holds.
    static func findings(_ store: String, _ directory: TemporaryDirectory) throws -> [String] {
        try Engines.findings(store, model: directory.path("Shelf.xcdatamodel"))
    }

    static let links = "SELECT a.ZNAME, b.ZISBN FROM Z_1BOOKS j JOIN ZAUTHOR a ON a.Z_PK = j.Z_1AUTHORS JOIN ZBOOK b ON b.Z_PK = j.Z_2BOOKS ORDER BY 1, 2"

    @Test("each rule: added, changed, removed; the user's change, object and link kept; Z_MAX right; verify clean; again: nothing")
    func everyRule() throws {
        let directory = try ShelfModel.setUp()
        defer { directory.remove() }
        let seed1 = try ShelfModel.build(ShelfModel.v1, as: "v1", in: directory)
        let seed2 = try ShelfModel.build(ShelfModel.v2, as: "v2", in: directory)
        let store = try ShelfModel.installWithUserEdits(seed1, in: directory)
        let maxBefore = try SQLiteShell.rows(store, "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_NAME = 'Book'")
        let report = try Self.update(store, to: seed2, directory)
        #expect(report.updated)
        #expect(report.added.map(\.description) == [#"Book[isbn="4"]"#], "\(report)")
        #expect(report.changed.map(\.description).contains(#"Book[isbn="1"]"#), "\(report)")
        #expect(report.removed.map(\.description) == [#"Author[name="Bob"]"#], "\(report)")
        #expect(report.keptChangedByUser.map(\.description) == [#"Book[isbn="2"]"#], "\(report)")
        #expect(report.keptLinked.map(\.description) == [#"Book[isbn="3"]"#], "\(report)")
        #expect(try SQLiteShell.rows(store, "SELECT ZISBN, ZTITLE, ZPRICE FROM ZBOOK ORDER BY ZISBN")
                == ["1|Café|9.0", "2|mine|2.5", "3|Three|3.0", "4|Four|4.0"])
        #expect(try SQLiteShell.rows(store, "SELECT Z_OPT > 1 FROM ZBOOK WHERE ZISBN = '1'") == ["1"])
        // Book 4 takes the next Z_PK; Z_MAX follows; its author is Ann, its place first on the shelf.
        #expect(try SQLiteShell.rows(store, "SELECT Z_PK FROM ZBOOK WHERE ZISBN = '4'") == [String(Int(maxBefore[0])! + 1)])
        #expect(try SQLiteShell.rows(store, "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_NAME = 'Book'") == [String(Int(maxBefore[0])! + 1)])
        #expect(try SQLiteShell.rows(store, Self.links) == ["Ann|1", "Ann|2", "Ann|4", "Zed|3"])
        // The new seed's order first (4, 1, then 2, whose place the user's change kept), then the rest.
        #expect(try SQLiteShell.rows(store, "SELECT ZISBN FROM ZBOOK WHERE ZSHELF IS NOT NULL ORDER BY Z_FOK_SHELF") == ["4", "1", "2", "3"])
        #expect(try Self.findings(store, directory) == [])
        let before = try Data(contentsOf: URL(fileURLWithPath: store))
        #expect(try !Self.update(store, to: seed2, directory).updated)
        #expect(try Data(contentsOf: URL(fileURLWithPath: store)) == before)
    }

    /// Before, an update only added links: a link the new seed dropped stayed, and one the user
    /// had removed came back.
    @Test("many-to-many links: one the new seed drops goes, one it adds comes, one the user removed stays away, one the user made stays; again: nothing")
    func manyToManyLinks() throws {
        let directory = try ShelfModel.setUp()
        defer { directory.remove() }
        let seed1 = try ShelfModel.build(ShelfModel.v1, as: "v1", in: directory)
        // Seed 2: Ann wrote 1 and 3 (not 2); Bob still wrote 2.
        let seed2 = try ShelfModel.build(ShelfModel.v1.replacingOccurrences(of: #""price": 3}"#, with: #""price": 3, "authors": ["Ann"]}"#)
                                            .replacingOccurrences(of: #""authors": ["Ann", "Bob"]"#, with: #""authors": ["Bob"]"#), as: "v2", in: directory)
        let store = try directory.install(seed1, as: "installed.sqlite")
        #expect(try SQLiteShell.rows(store, Self.links) == ["Ann|1", "Ann|2", "Bob|2"])
        // The user: Bob did not write book 2 after all; Bob wrote book 1.
        try SQLiteShell.execute("""
            DELETE FROM Z_1BOOKS WHERE Z_1AUTHORS = (SELECT Z_PK FROM ZAUTHOR WHERE ZNAME = 'Bob') AND Z_2BOOKS = (SELECT Z_PK FROM ZBOOK WHERE ZISBN = '2');
            INSERT INTO Z_1BOOKS VALUES ((SELECT Z_PK FROM ZAUTHOR WHERE ZNAME = 'Bob'), (SELECT Z_PK FROM ZBOOK WHERE ZISBN = '1'));
            """, on: store)
        #expect(try Self.update(store, to: seed2, directory).updated)
        #expect(try SQLiteShell.rows(store, Self.links) == ["Ann|1", "Ann|3", "Bob|1"])
        let before = try Data(contentsOf: URL(fileURLWithPath: store))
        #expect(try !Self.update(store, to: seed2, directory).updated)
        #expect(try Data(contentsOf: URL(fileURLWithPath: store)) == before)
        // Seed 1 again: Ann–2 back, Ann–3 gone; Bob–2, which the user removed, stays away.
        #expect(try Self.update(store, to: seed1, directory).updated)
        #expect(try SQLiteShell.rows(store, Self.links) == ["Ann|1", "Ann|2", "Bob|1"])
        #expect(try Self.findings(store, directory) == [])
    }

    @Test("seed 1 straight to seed 3 leaves the objects seed 1 → 2 → 3 leaves; an object without a key is named in the report by its values")
    func straightToThree() throws {
        let directory = try ShelfModel.setUp()
        defer { directory.remove() }
        let seed1 = try ShelfModel.build(ShelfModel.v1, as: "v1", in: directory)
        let seed2 = try ShelfModel.build(ShelfModel.v2, as: "v2", in: directory)
        let v3 = ShelfModel.v2.replacingOccurrences(of: "\"Four\"", with: "\"Vier\"").replacingOccurrences(of: "{\"label\": \"low\"}", with: "{\"label\": \"low\"}, {\"label\": \"new\"}")
        let seed3 = try ShelfModel.build(v3, as: "v3", in: directory)
        let stepwise = try ShelfModel.installWithUserEdits(seed1, as: "stepwise.sqlite", in: directory)
        #expect(try Self.update(stepwise, to: seed2, directory).updated)
        #expect(try Self.update(stepwise, to: seed3, directory).updated)
        let straight = try ShelfModel.installWithUserEdits(seed1, as: "straight.sqlite", in: directory)
        let report = try Self.update(straight, to: seed3, directory)
        // Shelf has no key: the record names it by a digest of its values, the report by the
        // values themselves, as seedgen diff does (was: "values digesting to …").
        #expect(report.updated && report.added.map(\.description).sorted() == [#"Book[isbn="4"]"#, #"Shelf(label="new")"#], "\(report)")
        let model = directory.path("Shelf.xcdatamodel")
        #expect(try Engines.dumpLines(stepwise, model: model) == Engines.dumpLines(straight, model: model))
    }

    @Test("the model changed too: with the bundle, or by the models the seeds carry, the store is migrated to the new version first, its record carried over, then updated",
          arguments: [true, false])
    func modelChangedToo(givenTheBundle: Bool) throws {
        let directory = try ShelfModel.setUp()
        defer { directory.remove() }
        let seed1 = try ShelfModel.build(ShelfModel.v1, as: "v1", in: directory)
        // Version 2: Book gains pages (a default), Shelf's label is renamed name.
        let v2Model = ShelfModel.model
            .replacingOccurrences(of: #"<attribute name="price""#, with: #"<attribute name="pages" optional="YES" attributeType="Integer 16" defaultValueString="100" usesScalarValueType="YES"/><attribute name="price""#)
            .replacingOccurrences(of: #"<attribute name="label" optional="YES" attributeType="String"/>"#, with: #"<attribute name="name" optional="YES" attributeType="String" elementID="label"/>"#)
        let bundle = try ClubModels.writeBundle([("Shelf", ShelfModel.model), ("Shelf 2", v2Model)], current: "Shelf 2", in: directory)
        let seed2 = try ShelfModel.build(ShelfModel.v2.replacingOccurrences(of: #""label""#, with: #""name""#), as: "v2", in: directory, model: bundle)
        let store = try ShelfModel.installWithUserEdits(seed1, in: directory)
        let updater = givenTheBundle ? try SeedUpdater(storeAt: store, seedAt: seed2, versions: try ModelLoader.loadVersions(from: bundle))
                                     : try SeedUpdater(storeAt: store, seedAt: seed2)
        let report = try updater.update()
        #expect(report.migratedFrom == (givenTheBundle ? "Shelf" : "the installed seed's model"), "\(report)")
        #expect(report.added.map(\.description) == [#"Book[isbn="4"]"#] && report.changed.map(\.description).contains(#"Book[isbn="1"]"#), "\(report)")
        #expect(report.keptChangedByUser.map(\.description) == [#"Book[isbn="2"]"#], "\(report)")
        // The shelves, renamed and unchanged, were matched through the migration: none added or removed.
        let moved = report.added + report.changed + report.removed + report.keptChangedByUser + report.keptDeletedByUser
        #expect(!moved.contains { $0.entity == "Shelf" }, "\(report)")
        #expect(try SQLiteShell.rows(store, "SELECT ZISBN, ZTITLE, ZPAGES FROM ZBOOK ORDER BY ZISBN") == ["1|Café|100", "2|mine|100", "3|Three|100", "4|Four|100"])
        #expect(try Engines.findings(store, model: bundle + "/Shelf 2.xcdatamodel") == [])
    }

    /// A migration once dropped the record of the seeded objects the user had deleted, of
    /// every entity it digested again: the update after it brought them back.
    @Test("an object the user deleted stays deleted through a migration of its entity, and a seeded one the user left is still updated")
    func deletedBeforeAMigration() throws {
        let directory = try ShelfModel.setUp()
        defer { directory.remove() }
        let seed1 = try ShelfModel.build(ShelfModel.v1, as: "v1", in: directory)
        // Version 2: Book gains pages (a default), so every book is digested again; an entity
        // numbered first renumbers the others, whose record rows are carried as they are.
        let v2Model = ShelfModel.model.replacingOccurrences(
            of: #"<attribute name="price""#,
            with: #"<attribute name="pages" optional="YES" attributeType="Integer 16" defaultValueString="100" usesScalarValueType="YES"/><attribute name="price""#)
            .replacingOccurrences(of: #"<entity name="Author">"#, with: #"<entity name="Aardvark"><attribute name="tag" optional="YES" attributeType="String"/></entity><entity name="Author">"#)
        let bundle = try ClubModels.writeBundle([("Shelf", ShelfModel.model), ("Shelf 2", v2Model)], current: "Shelf 2", in: directory)
        let seed2 = try ShelfModel.build(ShelfModel.v2, as: "v2", in: directory, model: bundle)
        let store = try directory.install(seed1, as: "installed.sqlite")
        try SQLiteShell.execute("""
            DELETE FROM Z_1BOOKS WHERE Z_2BOOKS = (SELECT Z_PK FROM ZBOOK WHERE ZISBN = '1');
            DELETE FROM ZBOOK WHERE ZISBN = '1';
            """, on: store)
        #expect(try Engines.migrate(store, bundle: bundle).migrated)
        let report = try Engines.update(store, seed: seed2, bundle: bundle)
        #expect(try SQLiteShell.rows(store, "SELECT ZISBN, ZTITLE, ZPAGES FROM ZBOOK ORDER BY ZISBN") == ["2|Two|100", "4|Four|100"], "\(report)")
        #expect(report.keptDeletedByUser.map(\.description) == [#"Book[isbn="1"]"#], "\(report)")
        // Authors and shelves were matched through the renumbering as seeded: Ann, whose books
        // seed 2 changes, is updated, Bob, whom it drops, goes, the shelves are left.
        let others = { (objects: [SeedUpdateReport.Object]) in objects.filter { $0.entity != "Book" }.map(\.description) }
        #expect(others(report.changed) == [#"Author[name="Ann"]"#] && others(report.removed) == [#"Author[name="Bob"]"#] && others(report.added).isEmpty, "\(report)")
        #expect(try Engines.findings(store, model: bundle + "/Shelf 2.xcdatamodel") == [])
    }

    /// A new object linked to an object the user deleted once got a link to the deleted row.
    @Test("an object the user deleted: not brought back, and nothing the update writes points at it")
    func deletedByTheUser() throws {
        let directory = try ShelfModel.setUp()
        defer { directory.remove() }
        let seed1 = try ShelfModel.build(ShelfModel.v1, as: "v1", in: directory)
        let seed2 = try ShelfModel.build(ShelfModel.v2.replacingOccurrences(of: #""Two""#, with: #""Zwei""#), as: "v2", in: directory)
        let store = try ShelfModel.installWithUserEdits(seed1, in: directory)
        try SQLiteShell.execute("""
            DELETE FROM Z_1BOOKS WHERE Z_1AUTHORS = (SELECT Z_PK FROM ZAUTHOR WHERE ZNAME = 'Ann');
            DELETE FROM ZAUTHOR WHERE ZNAME = 'Ann';
            """, on: store)
        let report = try Self.update(store, to: seed2, directory)
        #expect(report.updated && !report.added.contains { $0.entity == "Author" }, "\(report)")
        #expect(try SQLiteShell.rows(store, "SELECT COUNT(*) FROM ZAUTHOR WHERE ZNAME = 'Ann'") == ["0"])
        #expect(try SQLiteShell.rows(store, "SELECT COUNT(*) FROM Z_1BOOKS WHERE Z_1AUTHORS NOT IN (SELECT Z_PK FROM ZAUTHOR)") == ["0"])
        #expect(try Self.findings(store, directory) == [])
    }

    @Test("two updates started together: both succeed, one updates, the other finds the seed already there")
    func twoAtOnce() async throws {
        let directory = try ShelfModel.setUp()
        defer { directory.remove() }
        let seed1 = try ShelfModel.build(ShelfModel.v1, as: "v1", in: directory)
        let seed2 = try ShelfModel.build(ShelfModel.v2, as: "v2", in: directory)
        let store = try ShelfModel.installWithUserEdits(seed1, in: directory)
        let layout = try StoreLayout(model: try ModelLoader.load(from: directory.path("Shelf.xcdatamodel")))
        async let first = Task.detached { try SeedUpdater(storeAt: store, seedAt: seed2, layout: layout).update() }.value
        async let second = Task.detached { try SeedUpdater(storeAt: store, seedAt: seed2, layout: layout).update() }.value
        let reports = try await [first, second]
        #expect(reports.filter(\.updated).count == 1, "\(reports)")
        #expect(try SQLiteShell.rows(store, "SELECT COUNT(*) FROM ZBOOK WHERE ZISBN = '4'") == ["1"])
    }
}
