import Foundation
import SeedgenTestSupport
import Testing

/// `seedgen update`: a store installed from seed 1 of `DiffCommandTests.model` (a copy that
/// records the seed, as `seedgen install` and the runtime make it), changed as its app would change it (SQL on the copy: a user's values, a user's own
/// object and link), brought to seed 2 and seed 3.
@Suite("seedgen update")
struct UpdateCommandTests {
    typealias Build = DiffCommandTests

    /// Seed 2 against `DiffCommandTests.v1`: book 1 repriced, book 2 retitled, book 3 and Bob
    /// removed, book 4 added (by Ann, first on the top shelf).
    static let v2 = """
        {"Authors": [{"name": "Ann"}],
         "Shelves": [{"label": "top", "books": ["4", "1", "2"]}, {"label": "low"}],
         "Books": [{"isbn": "1", "title": "Caf\\u00e9", "price": 9.0, "authors": ["Ann"]},
                   {"isbn": "2", "title": "Two", "price": 2.5, "authors": ["Ann"]},
                   {"isbn": "4", "title": "Four", "price": 4, "authors": ["Ann"]}]}
        """

    /// The installed store after its user: book 2's title changed, an author Zed of their own
    /// who wrote book 3.
    static func install(_ seed: String, as name: String = "installed.sqlite", in directory: TemporaryDirectory) throws -> String {
        let store = try directory.install(seed, as: name)
        try SQLiteShell.execute("""
            UPDATE ZBOOK SET ZTITLE = 'mine', Z_OPT = Z_OPT + 1 WHERE ZISBN = '2';
            INSERT INTO ZAUTHOR (Z_PK, Z_ENT, Z_OPT, ZNAME) VALUES ((SELECT Z_MAX + 1 FROM Z_PRIMARYKEY WHERE Z_NAME = 'Author'), 1, 1, 'Zed');
            UPDATE Z_PRIMARYKEY SET Z_MAX = Z_MAX + 1 WHERE Z_NAME = 'Author';
            INSERT INTO Z_1BOOKS VALUES ((SELECT Z_PK FROM ZAUTHOR WHERE ZNAME = 'Zed'), (SELECT Z_PK FROM ZBOOK WHERE ZISBN = '3'));
            """, on: store)
        return store
    }

    static func update(_ store: String, to seed: String, _ directory: TemporaryDirectory, json: Bool = false) throws -> SeedgenTool.Result {
        try SeedgenTool.run(["update", store, "--seed", seed, "--model", directory.path("Shelf.xcdatamodel")] + (json ? ["--json"] : []))
    }

    @Test("each rule: added, changed, removed; the user's change, object and link kept; Z_MAX right; verify clean; again: nothing")
    func everyRule() throws {
        let directory = try Build.setUp()
        defer { directory.remove() }
        let seed1 = try Build.build(Build.v1, as: "v1", in: directory)
        let seed2 = try Build.build(Self.v2, as: "v2", in: directory)
        let store = try Self.install(seed1, in: directory)
        let maxBefore = try SQLiteShell.rows(store, "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_NAME = 'Book'")
        let result = try Self.update(store, to: seed2, directory)
        #expect(result.status == 0, "\(result.output)\(result.error)")
        let lines = Set(result.output.split(separator: "\n").map(String.init))
        for expected in [#"+ Book[isbn="4"]"#, #"~ Book[isbn="1"]"#, #"- Author[name="Bob"]"#,
                         #"= Book[isbn="2"] kept: the user changed it"#, #"= Book[isbn="3"] kept: something of the user's points at it"#] {
            #expect(lines.contains(expected), "\(expected) in:\n\(result.output)")
        }
        #expect(try SQLiteShell.rows(store, "SELECT ZISBN, ZTITLE, ZPRICE FROM ZBOOK ORDER BY ZISBN")
                == ["1|Café|9.0", "2|mine|2.5", "3|Three|3.0", "4|Four|4.0"])
        #expect(try SQLiteShell.rows(store, "SELECT Z_OPT > 1 FROM ZBOOK WHERE ZISBN = '1'") == ["1"])
        // Book 4 takes the next Z_PK; Z_MAX follows; its author is Ann, its place first on the shelf.
        #expect(try SQLiteShell.rows(store, "SELECT Z_PK FROM ZBOOK WHERE ZISBN = '4'") == [String(Int(maxBefore[0])! + 1)])
        #expect(try SQLiteShell.rows(store, "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_NAME = 'Book'") == [String(Int(maxBefore[0])! + 1)])
        #expect(try SQLiteShell.rows(store, """
            SELECT a.ZNAME, b.ZISBN FROM Z_1BOOKS j JOIN ZAUTHOR a ON a.Z_PK = j.Z_1AUTHORS JOIN ZBOOK b ON b.Z_PK = j.Z_2BOOKS ORDER BY 1, 2
            """) == ["Ann|1", "Ann|2", "Ann|4", "Zed|3"])
        // The new seed's order first (4, 1, then 2, whose place the user's change kept), then the rest.
        #expect(try SQLiteShell.rows(store, "SELECT ZISBN FROM ZBOOK WHERE ZSHELF IS NOT NULL ORDER BY Z_FOK_SHELF") == ["4", "1", "2", "3"])
        let verify = try SeedgenTool.run(["verify", store, "--model", directory.path("Shelf.xcdatamodel")])
        #expect(verify.status == 0, "\(verify.output)")
        let before = try Data(contentsOf: URL(fileURLWithPath: store))
        let again = try Self.update(store, to: seed2, directory)
        #expect(again.status == 0 && again.output.contains("holds this seed already"), "\(again.output)\(again.error)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: store)) == before)
    }

    /// Before, an update only added links: a link the new seed dropped stayed, and one the user
    /// had removed came back.
    @Test("many-to-many links: one the new seed drops goes, one it adds comes, one the user removed stays away, one the user made stays; again: nothing")
    func links() throws {
        let directory = try Build.setUp()
        defer { directory.remove() }
        let seed1 = try Build.build(Build.v1, as: "v1", in: directory)
        // Seed 2: Ann wrote 1 and 3 (not 2); Bob still wrote 2.
        let seed2 = try Build.build(Build.v1.replacingOccurrences(of: #""price": 3}"#, with: #""price": 3, "authors": ["Ann"]}"#)
                                        .replacingOccurrences(of: #""authors": ["Ann", "Bob"]"#, with: #""authors": ["Bob"]"#), as: "v2", in: directory)
        let store = try directory.install(seed1, as: "installed.sqlite")
        let links = "SELECT a.ZNAME, b.ZISBN FROM Z_1BOOKS j JOIN ZAUTHOR a ON a.Z_PK = j.Z_1AUTHORS JOIN ZBOOK b ON b.Z_PK = j.Z_2BOOKS ORDER BY 1, 2"
        #expect(try SQLiteShell.rows(store, links) == ["Ann|1", "Ann|2", "Bob|2"])
        // The user: Bob did not write book 2 after all; Bob wrote book 1.
        try SQLiteShell.execute("""
            DELETE FROM Z_1BOOKS WHERE Z_1AUTHORS = (SELECT Z_PK FROM ZAUTHOR WHERE ZNAME = 'Bob') AND Z_2BOOKS = (SELECT Z_PK FROM ZBOOK WHERE ZISBN = '2');
            INSERT INTO Z_1BOOKS VALUES ((SELECT Z_PK FROM ZAUTHOR WHERE ZNAME = 'Bob'), (SELECT Z_PK FROM ZBOOK WHERE ZISBN = '1'));
            """, on: store)
        let result = try Self.update(store, to: seed2, directory)
        #expect(result.status == 0, "\(result.output)\(result.error)")
        #expect(try SQLiteShell.rows(store, links) == ["Ann|1", "Ann|3", "Bob|1"])
        let before = try Data(contentsOf: URL(fileURLWithPath: store))
        #expect(try Self.update(store, to: seed2, directory).status == 0)
        #expect(try Data(contentsOf: URL(fileURLWithPath: store)) == before)
        // Seed 1 again: Ann–2 back, Ann–3 gone; Bob–2, which the user removed, stays away.
        #expect(try Self.update(store, to: seed1, directory).status == 0)
        #expect(try SQLiteShell.rows(store, links) == ["Ann|1", "Ann|2", "Bob|1"])
        let verify = try SeedgenTool.run(["verify", store, "--model", directory.path("Shelf.xcdatamodel")])
        #expect(verify.status == 0, "\(verify.output)")
    }

    @Test("seed 1 straight to seed 3 leaves the objects seed 1 → 2 → 3 leaves; the JSON report")
    func straightToThree() throws {
        let directory = try Build.setUp()
        defer { directory.remove() }
        let seed1 = try Build.build(Build.v1, as: "v1", in: directory)
        let seed2 = try Build.build(Self.v2, as: "v2", in: directory)
        let v3 = Self.v2.replacingOccurrences(of: "\"Four\"", with: "\"Vier\"").replacingOccurrences(of: "{\"label\": \"low\"}", with: "{\"label\": \"low\"}, {\"label\": \"new\"}")
        let seed3 = try Build.build(v3, as: "v3", in: directory)
        let stepwise = try Self.install(seed1, as: "stepwise.sqlite", in: directory)
        #expect(try Self.update(stepwise, to: seed2, directory).status == 0)
        #expect(try Self.update(stepwise, to: seed3, directory).status == 0)
        let straight = try Self.install(seed1, as: "straight.sqlite", in: directory)
        let json = try Self.update(straight, to: seed3, directory, json: true)
        let report = try #require(try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any])
        #expect(json.status == 0 && report["updated"] as? Bool == true)
        // Shelf has no key: the record names it by a digest of its values, the report by the
        // values themselves, as seedgen diff does (was: "values digesting to …").
        let added = try #require(report["added"] as? [[String: String]])
        #expect(added.map { $0["entity"]! }.sorted() == ["Book", "Shelf"] && added.contains { $0["key"] == #"isbn="4""# }, "\(added)")
        #expect(added.contains { $0["entity"] == "Shelf" && $0["key"] == #"label="new""# }, "\(added)")
        let diff = try SeedgenTool.run(["diff", seed1, seed3, "--model", directory.path("Shelf.xcdatamodel")])
        #expect(diff.output.contains(#"+ Shelf(label="new")"#), "\(diff.output)")
        let text = try Self.update(try Self.install(seed1, as: "text.sqlite", in: directory), to: seed3, directory)
        #expect(text.output.contains(#"+ Shelf(label="new")"#), "\(text.output)")
        let same = try SeedgenTool.run(["diff", stepwise, straight, "--model", directory.path("Shelf.xcdatamodel")])
        #expect(same.status == 0, "\(same.output)")
    }

    @Test("the model changed too: with the bundle, or without --model by the models the seeds carry, the store is migrated to the new version first, its record carried over, then updated",
          arguments: [true, false])
    func modelChangedToo(givenTheBundle: Bool) throws {
        let directory = try Build.setUp()
        defer { directory.remove() }
        let seed1 = try Build.build(Build.v1, as: "v1", in: directory)
        // Version 2: Book gains pages (a default), Shelf's label is renamed name.
        let v2Model = Build.model
            .replacingOccurrences(of: #"<attribute name="price""#, with: #"<attribute name="pages" optional="YES" attributeType="Integer 16" defaultValueString="100" usesScalarValueType="YES"/><attribute name="price""#)
            .replacingOccurrences(of: #"<attribute name="label" optional="YES" attributeType="String"/>"#, with: #"<attribute name="name" optional="YES" attributeType="String" elementID="label"/>"#)
        let bundle = try ClubModels.writeBundle([("Shelf", Build.model), ("Shelf 2", v2Model)], current: "Shelf 2", in: directory)
        let source = try directory.write(Self.v2.replacingOccurrences(of: #""label""#, with: #""name""#), to: "v2.json")
        let seed2 = directory.path("v2.sqlite")
        let build = try SeedgenTool.run(["build", "--model", bundle, "--output", seed2, "--quiet", "--key", "Book=isbn", source])
        #expect(build.status == 0, "\(build.error)")
        let store = try Self.install(seed1, in: directory)
        let result = try SeedgenTool.run(["update", store, "--seed", seed2] + (givenTheBundle ? ["--model", bundle] : []))
        #expect(result.status == 0, "\(result.output)\(result.error)")
        let lines = Set(result.output.split(separator: "\n").map(String.init))
        let migrated = givenTheBundle ? "Shelf to Shelf 2" : "the installed seed's model to the new seed's model"
        for expected in ["\(store): migrated from \(migrated) first", #"+ Book[isbn="4"]"#, #"~ Book[isbn="1"]"#,
                         #"= Book[isbn="2"] kept: the user changed it"#] {
            #expect(lines.contains(expected), "\(expected) in:\n\(result.output)")
        }
        // The shelves, renamed and unchanged, were matched through the migration: none added or removed.
        #expect(!result.output.contains("Shelf["), "\(result.output)")
        #expect(try SQLiteShell.rows(store, "SELECT ZISBN, ZTITLE, ZPAGES FROM ZBOOK ORDER BY ZISBN") == ["1|Café|100", "2|mine|100", "3|Three|100", "4|Four|100"])
        let verify = try SeedgenTool.run(["verify", store, "--model", bundle])
        #expect(verify.status == 0, "\(verify.output)")
    }

    /// A migration once dropped the record of the seeded objects the user had deleted, of
    /// every entity it digested again: the update after it brought them back.
    @Test("an object the user deleted stays deleted through a migration of its entity, and a seeded one the user left is still updated")
    func deletedBeforeAMigration() throws {
        let directory = try Build.setUp()
        defer { directory.remove() }
        let seed1 = try Build.build(Build.v1, as: "v1", in: directory)
        // Version 2: Book gains pages (a default), so every book is digested again; an entity
        // numbered first renumbers the others, whose record rows are carried as they are.
        let v2Model = Build.model.replacingOccurrences(
            of: #"<attribute name="price""#,
            with: #"<attribute name="pages" optional="YES" attributeType="Integer 16" defaultValueString="100" usesScalarValueType="YES"/><attribute name="price""#)
            .replacingOccurrences(of: #"<entity name="Author">"#, with: #"<entity name="Aardvark"><attribute name="tag" optional="YES" attributeType="String"/></entity><entity name="Author">"#)
        let bundle = try ClubModels.writeBundle([("Shelf", Build.model), ("Shelf 2", v2Model)], current: "Shelf 2", in: directory)
        let source = try directory.write(Self.v2, to: "v2.json")
        let seed2 = directory.path("v2.sqlite")
        let build = try SeedgenTool.run(["build", "--model", bundle, "--output", seed2, "--quiet", "--key", "Book=isbn", source])
        #expect(build.status == 0, "\(build.error)")
        let store = try directory.install(seed1, as: "installed.sqlite")
        try SQLiteShell.execute("""
            DELETE FROM Z_1BOOKS WHERE Z_2BOOKS = (SELECT Z_PK FROM ZBOOK WHERE ZISBN = '1');
            DELETE FROM ZBOOK WHERE ZISBN = '1';
            """, on: store)
        let migrate = try SeedgenTool.run(["migrate", store, "--model", bundle])
        #expect(migrate.status == 0, "\(migrate.output)\(migrate.error)")
        let result = try SeedgenTool.run(["update", store, "--seed", seed2, "--model", bundle])
        #expect(result.status == 0, "\(result.output)\(result.error)")
        #expect(try SQLiteShell.rows(store, "SELECT ZISBN, ZTITLE, ZPAGES FROM ZBOOK ORDER BY ZISBN") == ["2|Two|100", "4|Four|100"], "\(result.output)")
        // Authors and shelves were matched through the renumbering as seeded: Ann, whose books
        // seed 2 changes, is updated, Bob, whom it drops, goes, the shelves are left.
        let changes = result.output.split(separator: "\n").filter { $0.contains("Author[") || $0.contains("Shelf[") }
        #expect(changes == [#"~ Author[name="Ann"]"#, #"- Author[name="Bob"]"#], "\(result.output)")
        let verify = try SeedgenTool.run(["verify", store, "--model", bundle])
        #expect(verify.status == 0, "\(verify.output)")
    }

    /// A new object linked to an object the user deleted once got a link to the deleted row.
    @Test("an object the user deleted: not brought back, and nothing the update writes points at it")
    func deletedByTheUser() throws {
        let directory = try Build.setUp()
        defer { directory.remove() }
        let seed1 = try Build.build(Build.v1, as: "v1", in: directory)
        let seed2 = try Build.build(Self.v2.replacingOccurrences(of: #""Two""#, with: #""Zwei""#), as: "v2", in: directory)
        let store = try Self.install(seed1, in: directory)
        try SQLiteShell.execute("""
            DELETE FROM Z_1BOOKS WHERE Z_1AUTHORS = (SELECT Z_PK FROM ZAUTHOR WHERE ZNAME = 'Ann');
            DELETE FROM ZAUTHOR WHERE ZNAME = 'Ann';
            """, on: store)
        let result = try Self.update(store, to: seed2, directory)
        #expect(result.status == 0, "\(result.output)\(result.error)")
        #expect(try SQLiteShell.rows(store, "SELECT COUNT(*) FROM ZAUTHOR WHERE ZNAME = 'Ann'") == ["0"])
        #expect(try SQLiteShell.rows(store, "SELECT COUNT(*) FROM Z_1BOOKS WHERE Z_1AUTHORS NOT IN (SELECT Z_PK FROM ZAUTHOR)") == ["0"])
        let verify = try SeedgenTool.run(["verify", store, "--model", directory.path("Shelf.xcdatamodel")])
        #expect(verify.status == 0, "\(verify.output)")
    }

    @Test("two updates started together: both succeed, one updates, the other finds the seed already there")
    func twoAtOnce() async throws {
        let directory = try Build.setUp()
        defer { directory.remove() }
        let seed1 = try Build.build(Build.v1, as: "v1", in: directory)
        let seed2 = try Build.build(Self.v2, as: "v2", in: directory)
        let store = try Self.install(seed1, in: directory)
        let arguments = ["update", store, "--seed", seed2, "--model", directory.path("Shelf.xcdatamodel")]
        async let first = Task.detached { try SeedgenTool.run(arguments) }.value
        async let second = Task.detached { try SeedgenTool.run(arguments) }.value
        let results = try await [first, second]
        #expect(results.allSatisfy { $0.status == 0 }, "\(results.map(\.error))")
        #expect(results.filter { $0.output.contains("holds this seed already") }.count == 1, "\(results.map(\.output))")
        #expect(try SQLiteShell.rows(store, "SELECT COUNT(*) FROM ZBOOK WHERE ZISBN = '4'") == ["1"])
    }

    @Test("seedgen install: the store records its seed and updates from it; over an existing file: exit 1, its bytes unchanged, nothing beside it")
    func installCommand() throws {
        let directory = try Build.setUp()
        defer { directory.remove() }
        let seed1 = try Build.build(Build.v1, as: "v1", in: directory)
        let seed2 = try Build.build(Self.v2, as: "v2", in: directory)
        let store = directory.path("data/installed.sqlite")
        let install = try SeedgenTool.run(["install", seed1, store])
        #expect(install.status == 0 && install.output.contains("recorded"), "\(install.output)\(install.error)")
        // Packed: ten bytes an object.
        #expect(try SQLiteShell.rows(store, "SELECT SUM(length(ENTRIES)) / 10 FROM SEEDGEN_PACKED") == SQLiteShell.rows(seed1, "SELECT (SELECT COUNT(*) FROM ZAUTHOR) + (SELECT COUNT(*) FROM ZBOOK) + (SELECT COUNT(*) FROM ZSHELF)"))
        #expect(try SQLiteShell.rows(seed1, "SELECT COUNT(*) FROM sqlite_master WHERE name LIKE 'SEEDGEN_%ED'") == ["0"], "the seed itself is left as it is")
        let before = try Data(contentsOf: URL(fileURLWithPath: store))
        let again = try SeedgenTool.run(["install", seed2, store])
        #expect(again.status == 1 && again.error.contains("exists") && again.error.contains("seedgen update"), "\(again.error)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: store)) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path("data")).sorted() == [".installed.sqlite.seedgen-lock", "installed.sqlite"])
        let update = try Self.update(store, to: seed2, directory)
        #expect(update.status == 0 && update.output.contains(#"+ Book[isbn="4"]"#), "\(update.output)\(update.error)")
        let missing = try SeedgenTool.run(["install", directory.path("none.sqlite"), directory.path("other.sqlite")])
        #expect(missing.status == 2 && !FileManager.default.fileExists(atPath: directory.path("other.sqlite")), "\(missing.error)")
    }

    @Test("no seed record, another model version, a missing seed: refused, the store's bytes unchanged")
    func refusals() throws {
        let directory = try Build.setUp()
        defer { directory.remove() }
        let seed1 = try Build.build(Build.v1, as: "v1", in: directory)
        let seed2 = try Build.build(Self.v2, as: "v2", in: directory)
        let store = try Self.install(seed1, in: directory)
        try SQLiteShell.execute("DROP TABLE SEEDGEN_PACKED", on: store)
        let before = try Data(contentsOf: URL(fileURLWithPath: store))
        let unrecorded = try Self.update(store, to: seed2, directory)
        #expect(unrecorded.status == 1 && unrecorded.error.contains("carries no record of the seed it was installed from"), "\(unrecorded.error)")
        // A plain copy of the seed records nothing: refused, naming what records a store.
        let copied = try directory.copy(URL(fileURLWithPath: seed1), as: "copied.sqlite")
        let copiedBytes = try Data(contentsOf: URL(fileURLWithPath: copied))
        let plain = try Self.update(copied, to: seed2, directory)
        #expect(plain.status == 1 && plain.error.contains("carries no record") && plain.error.contains("seedgen install"), "\(plain.error)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: copied)) == copiedBytes)
        let other = try directory.install(try Build.storeOfAnotherModel(in: directory), as: "other-installed.sqlite")
        let wrongModel = try Self.update(other, to: seed2, directory)
        #expect(wrongModel.status == 1 && wrongModel.error.contains("cannot be brought to the model's current version first"), "\(wrongModel.error)")
        #expect(wrongModel.error.components(separatedBy: other).count == 2, "the store's path is said once: \(wrongModel.error)")
        let missing = try Self.update(store, to: directory.path("none.sqlite"), directory)
        #expect(missing.status == 2, "\(missing.error)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: store)) == before)
        // A seed SQLite cannot open: the message names it (it was SQLite's words alone).
        let recorded = try Self.install(seed1, as: "recorded.sqlite", in: directory)
        let recordedBytes = try Data(contentsOf: URL(fileURLWithPath: recorded))
        let garbage = try directory.write("not a store at all", to: "garbage.sqlite")
        let unreadable = try Self.update(recorded, to: garbage, directory)
        // Read and refused for what it holds: exit 1 by the one rule (a file that cannot be read at all is 2).
        #expect(unreadable.status == 1 && unreadable.error.contains("\(garbage): not an SQLite database"), "\(unreadable.error)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: recorded)) == recordedBytes)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path("")).filter { $0.hasSuffix("-journal") }.isEmpty)
    }
}
