import Foundation
import SeedgenTestSupport
import Testing

/// `seedgen diff`: two seeds built from JSON with a model of every naming kind (a uniqueness
/// constraint, a build-time key, no key), every relationship kind, and values that differ only
/// in their bytes; and real stores Core Data wrote, changed with SQL.
@Suite("seedgen diff")
struct DiffCommandTests {
    /// Author keyed by the model, Book by `--key Book=isbn`, Shelf by nothing (`ShelfModel`).
    static let model = ShelfModel.model
    static let v1 = ShelfModel.v1

    static func build(_ source: String, as name: String, in directory: TemporaryDirectory, keys: [String] = ["Book=isbn"]) throws -> String {
        try ShelfModel.build(source, as: name, in: directory, keys: keys)
    }

    /// The EM-Plan seed, built from the repository's `Seeds/`: a store of another model.
    static func storeOfAnotherModel(in directory: TemporaryDirectory) throws -> String {
        let store = directory.path("EMPlan.sqlite")
        let seeds = Corpus.packageRoot.appendingPathComponent("Seeds/EMPlan")
        let result = try SeedgenTool.run(["build", "--model", seeds.appendingPathComponent("EMPlan.xcdatamodeld").path, "--output", store,
                                          "--quiet", seeds.appendingPathComponent("setup.plist").path])
        #expect(result.status == 0, "\(result.error)")
        return store
    }

    static func setUp() throws -> TemporaryDirectory { try ShelfModel.setUp() }

    static func diff(_ old: String, _ new: String, _ directory: TemporaryDirectory, json: Bool = false) throws -> SeedgenTool.Result {
        try SeedgenTool.run(["diff", old, new, "--model", directory.path("Shelf.xcdatamodel")] + (json ? ["--json"] : []))
    }

    @Test("without --model, the new store's own model (a seed carries it); a store that carries none: exit 1, saying to give --model")
    func modelCarriedByTheStore() throws {
        let directory = try Self.setUp()
        defer { directory.remove() }
        let old = try Self.build(Self.v1, as: "v1", in: directory)
        let new = try Self.build(Self.v1.replacingOccurrences(of: "Three", with: "3"), as: "v2", in: directory)
        let given = try Self.diff(old, new, directory)
        let carried = try SeedgenTool.run(["diff", old, new])
        #expect(given.status == 1 && carried.status == 1, "\(carried.error)")
        #expect(carried.output == given.output && carried.output.contains(#"~ Book[isbn="3"]: title "Three" -> "3""#), "\(carried.output)")
        try SQLiteShell.execute("DROP TABLE SEEDGEN_MODEL", on: new)
        let none = try SeedgenTool.run(["diff", old, new])
        #expect(none.status == 1 && none.error.contains("carries no model") && none.error.contains("--model"), "\(none.error)")
    }

    @Test("the same objects in another order (other Z_PKs) are the same: exit 0")
    func sameObjectsOtherNumbers() throws {
        let directory = try Self.setUp()
        defer { directory.remove() }
        let old = try Self.build(Self.v1, as: "v1", in: directory)
        let shuffled = """
            {"Books": [{"isbn": "3", "title": "Three", "price": 3, "shelf": null},
                       {"isbn": "2", "title": "a\\u0000b", "price": 2.5, "authors": ["Bob", "Ann"]},
                       {"isbn": "1", "title": "Caf\\u00e9", "price": 0.0, "authors": ["Ann"]}],
             "Shelves": [{"label": "low"}, {"label": "top", "books": ["1", "2", "3"]}],
             "Authors": [{"name": "Bob"}, {"name": "Ann"}]}
            """
        let new = try Self.build(shuffled, as: "v2", in: directory)
        #expect(try SQLiteShell.rows(old, "SELECT Z_PK FROM ZBOOK WHERE ZISBN = '1'") != SQLiteShell.rows(new, "SELECT Z_PK FROM ZBOOK WHERE ZISBN = '1'"))
        let result = try Self.diff(old, new, directory)
        #expect(result.status == 0, "\(result.output)\(result.error)")
        #expect(result.output.contains("the stores hold the same objects (7)"), "\(result.output)")
    }

    @Test("each kind of change is listed with old and new value, byte for byte; exit 1; JSON for tools")
    func everyKindOfChange() throws {
        let directory = try Self.setUp()
        defer { directory.remove() }
        let old = try Self.build(Self.v1, as: "v1", in: directory)
        // Book 1: the title in NFD (the same text to Swift's ==), a price of 1e-300; Book 2: the
        // byte after the NUL, Bob no longer its author (the join table is Author.books's); Book 3
        // moved to the front of its shelf's list; Book 4 added; the shelf "low" renamed (it has
        // no key: removed and added); Cyd added.
        let v2 = """
            {"Authors": [{"name": "Ann"}, {"name": "Bob"}, {"name": "Cyd"}],
             "Shelves": [{"label": "top", "books": ["3", "1", "2"]}, {"label": "bottom"}],
             "Books": [{"isbn": "1", "title": "Cafe\\u0301", "price": 1e-300, "authors": ["Ann"]},
                       {"isbn": "2", "title": "a\\u0000c", "price": 2.5, "authors": ["Ann"]},
                       {"isbn": "3", "title": "Three", "price": 3},
                       {"isbn": "4", "title": "Four"}]}
            """
        let new = try Self.build(v2, as: "v2", in: directory)
        let result = try Self.diff(old, new, directory)
        #expect(result.status == 1, "\(result.error)")
        let lines = Set(result.output.split(separator: "\n").map(String.init))
        for expected in [
            #"~ Author[name="Bob"]: books -Book[isbn="2"]"#,
            #"+ Author[name="Cyd"]"#,
            #"~ Book[isbn="1"]: price 0.0 -> 1e-300; title "Café" -> "Café"; shelf position 1 -> 2"#,
            #"~ Book[isbn="2"]: title "a\u{0}b" -> "a\u{0}c"; shelf position 2 -> 3"#,
            #"~ Book[isbn="3"]: shelf position 3 -> 1"#,
            #"+ Book[isbn="4"]"#,
            #"- Shelf(label="low")"#,
            #"+ Shelf(label="bottom")"#,
            "Book: 1 added, 0 removed, 3 changed, 0 same",
            "the stores differ: 3 added, 1 removed, 4 changed, 2 same",
        ] {
            #expect(lines.contains(expected), "\(expected) in:\n\(result.output)")
        }
        let json = try Self.diff(old, new, directory, json: true)
        #expect(json.status == 1)
        let report = try #require(try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any])
        let objects = try #require(report["objects"] as? [[String: Any]])
        #expect(objects.count == 8 && report["same"] as? Bool == false)
        let price = try #require(objects.lazy.compactMap { $0["properties"] as? [[String: Any]] }.joined().first { $0["name"] as? String == "price" })
        #expect(price["old"] as? Double == 0 && price["new"] as? Double == 1e-300)
        let book1 = try #require(objects.first { ($0["object"] as? [String: Any])?["key"] as? [String: String] == ["isbn": "1"] })
        let title = try #require((book1["properties"] as? [[String: Any]])?.first { $0["name"] as? String == "title" })
        #expect(Array((title["old"] as? String ?? "").utf8) == Array("Caf\u{e9}".utf8))
        #expect(Array((title["new"] as? String ?? "").utf8) == Array("Cafe\u{301}".utf8))
        #expect((report["total"] as? [String: Int]) == ["added": 3, "removed": 1, "changed": 4, "same": 2])
    }

    @Test("objects keyed by a build-time key are matched by it: the key is recorded in the store")
    func buildKeyIsRecorded() throws {
        let directory = try Self.setUp()
        defer { directory.remove() }
        let old = try Self.build(Self.v1, as: "v1", in: directory)
        let new = try Self.build(Self.v1.replacingOccurrences(of: "\"Three\"", with: "\"3\""), as: "v2", in: directory)
        let result = try Self.diff(old, new, directory)
        #expect(result.status == 1 && result.output.contains(#"~ Book[isbn="3"]: title "Three" -> "3""#), "\(result.output)")
        let inspect = try SeedgenTool.run(["inspect", old])
        #expect(inspect.output.contains("org.seedgen.keys"), "\(inspect.output)")
        // Built without the key, Book is named by its values: the changed book is removed and
        // added (the shelf names no book: without a key it cannot).
        let unshelved = Self.v1.replacingOccurrences(of: #", "books": ["1", "2", "3"]"#, with: "")
        let plain = try Self.build(unshelved, as: "v3", in: directory, keys: [])
        let unkeyed = try Self.build(unshelved.replacingOccurrences(of: "\"Three\"", with: "\"3\""), as: "v4", in: directory, keys: [])
        #expect(try !SeedgenTool.run(["inspect", plain]).output.contains("org.seedgen.keys"))
        let values = try Self.diff(plain, unkeyed, directory)
        #expect(values.status == 1 && values.output.contains("Book: 1 added, 1 removed, 0 changed, 2 same"), "\(values.output)")
    }

    @Test("a missing file or model: exit 2; a store of another model version: exit 1 (read and refused); each named")
    func unreadable() throws {
        let directory = try Self.setUp()
        defer { directory.remove() }
        let old = try Self.build(Self.v1, as: "v1", in: directory)
        let missing = try Self.diff(old, directory.path("none.sqlite"), directory)
        #expect(missing.status == 2 && missing.error.contains("none.sqlite: no such file"), "\(missing.error)")
        let other = try Self.storeOfAnotherModel(in: directory)
        let wrong = try Self.diff(old, other, directory)
        #expect(wrong.status == 1 && wrong.error.contains("EMPlan.sqlite: the store is of another version of the model"), "\(wrong.error)")
        let badModel = try SeedgenTool.run(["diff", old, old, "--model", directory.path("none.xcdatamodel")])
        #expect(badModel.status == 2)
    }

    @Test("a store Core Data wrote: against itself the same; changed with SQL, each change found", .enabled(if: Corpus.isAvailable, Comment(rawValue: Corpus.skipMessage)))
    func realStore() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let wire = try #require(Corpus.allStores.first { $0.name == "wire" })
        let old = try directory.copy(wire.store, as: "old.sqlite")
        let same = try SeedgenTool.run(["diff", old, old, "--model", wire.model.path])
        #expect(same.status == 0 && same.output.contains("the stores hold the same objects (99)"), "\(same.output)\(same.error)")
        let new = try directory.copy(wire.store, as: "new.sqlite")
        try SQLiteShell.execute("""
            DELETE FROM Z_11USERS WHERE rowid = (SELECT MIN(rowid) FROM Z_11USERS);
            UPDATE ZUSERCLIENT SET ZLABEL = 'changed' WHERE Z_PK = (SELECT MIN(Z_PK) FROM ZUSERCLIENT);
            """, on: new)
        let result = try SeedgenTool.run(["diff", old, new, "--model", wire.model.path])
        #expect(result.status == 1, "\(result.output)\(result.error)")
        let changed = result.output.split(separator: "\n").filter { $0.hasPrefix("~ ") }
        // UserClient has no key: named by its values, the changed client is removed and added,
        // and each link to it (SystemMessage.clients) changes with it.
        #expect(result.output.contains("UserClient: 1 added, 1 removed, 0 changed, 11 same"), "\(result.output)")
        #expect(changed.count == 19 && changed.filter { $0.contains(": users -User(") }.count == 1, "\(result.output)")
        #expect(changed.filter { $0.contains(": clients +UserClient(") }.count == 18, "\(result.output)")
    }
}
