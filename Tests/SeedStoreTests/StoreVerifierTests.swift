import Foundation
import SeedModel
import SeedModelLoader
import SeedgenTestSupport
import Testing
@testable import SeedStore

@Suite("Store verifier", corpusTrait)
struct StoreVerifierTests {
    static func verify(_ path: String, model: URL?, notes: Bool = false) throws -> [Finding] {
        let layout = try model.map { try StoreLayout(model: try ModelLoader.load(from: $0.path)) }
        return try StoreVerifier(storePath: path, layout: layout).verify().filter { notes || !$0.isNote }
    }

    static let coredataplus = Corpus.stores[1]
    static let recipes = Corpus.stores[3]

    @Test("every corpus store verifies clean against its own model, whatever its era, except recipes; fresh stores without a note",
          arguments: Corpus.allStores.filter { $0.name != "recipes" })
    func corpusClean(_ store: Corpus.Store) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let copy = try directory.copy(store.store)  // a WAL-mode store grows sidecars when opened
        let findings = try Self.verify(copy, model: store.model, notes: true)
        #expect(!findings.contains { !$0.isNote }, "\(store.name): \(findings)")
        #expect(findings.isEmpty == (store.name != "wire"), "\(store.name): \(findings)")
    }

    @Test("wire, migrated forward by Core Data: a join column named by an earlier version, an earlier version's index and a value in an external file are notes")
    func migratedStoreNotes() throws {
        let wire = try #require(Corpus.allStores.first { $0.name == "wire" })
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let copy = try directory.copy(wire.store)
        let notes = try Self.verify(copy, model: wire.model, notes: true)
        #expect(notes.map(\.location).sorted() == ["User.imageMediumData (column ZIMAGEMEDIUMDATA)", "Z_11USERS.Z_17USERS1",
                                                  "index ZADDRESSBOOKENTRY_ZLOCALIDENTIFIER_INDEX"], "\(notes)")
        // A join column renamed to something else is still damage.
        try StoreTestSupport.damage(copy, "ALTER TABLE Z_11USERS RENAME COLUMN Z_17USERS1 TO Z_17PEOPLE")
        let findings = try Self.verify(copy, model: wire.model)
        #expect(findings.contains { $0.check == "column" && $0.location == "Z_11USERS.Z_17USERS" }, "\(findings)")
    }

    /// What Core Data's forward migrations leave of indexes (kept from earlier versions, named or
    /// spelled as the framework that made them wrote them) changes no value Core Data reads:
    /// notes, and the store stays clean. Before, each of these was a finding (exit 1).
    @Test("indexes renamed, respelled, replaced, missing or extra are notes; the store stays clean")
    func harmlessIndexDifferencesAreNotes() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let coredataplus = try directory.copy(Self.coredataplus.store)
        try StoreTestSupport.damage(coredataplus, """
            DROP INDEX Z_Person_UNIQUE_firstName_lastName;
            CREATE UNIQUE INDEX ZPERSON_NAMES ON ZPERSON (ZFIRSTNAME, ZLASTNAME);
            DROP INDEX ZCAR_ZOWNER_INDEX;
            CREATE INDEX ZCAR_OLD_INDEX ON ZCAR (ZNUMBERPLATE, ZOWNER);
            """)
        let notes = try Self.verify(coredataplus, model: Self.coredataplus.model, notes: true)
        #expect(notes.allSatisfy { $0.isNote }, "\(notes)")
        #expect(notes.map(\.location) == ["index ZCAR_ZOWNER_INDEX on ZCAR", "index Z_Person_UNIQUE_firstName_lastName on ZPERSON", "index ZCAR_OLD_INDEX"], "\(notes)")
        #expect(notes[0].found.hasPrefix("missing") && notes[1].found.contains("named ZPERSON_NAMES"), "\(notes)")

        let bookmarks = try #require(Corpus.freshStores.first { $0.name == "bookmarks" })
        let copy = try directory.copy(bookmarks.store)
        try StoreTestSupport.damage(copy, """
            DROP INDEX Z_BookmarkEntity_byUUID;
            CREATE INDEX Z_BookmarkEntity_byUUID ON ZBOOKMARKENTITY (ZUUID, ZISPENDINGDELETION);
            DROP INDEX Z_BookmarkEntity_byURL;
            CREATE INDEX Z_BookmarkEntity_byURL ON ZBOOKMARKENTITY (ZURL);
            """)
        let respelled = try Self.verify(copy, model: bookmarks.model, notes: true)
        #expect(respelled.allSatisfy { $0.isNote } && respelled.count == 2, "\(respelled)")
        #expect(respelled.contains { $0.location.hasPrefix("index Z_BookmarkEntity_byUUID") && $0.found.contains("the same index") }, "\(respelled)")
        #expect(respelled.contains { $0.location.hasPrefix("index Z_BookmarkEntity_byURL") && $0.found.contains("a different index") }, "\(respelled)")
    }

    /// A store of another model version lacks columns the model has: each is one `column`
    /// finding. Before, the reference and position checks then read the missing column (SQLite
    /// takes an unknown double-quoted name for a string) and added an `sqlite` finding ("expected
    /// a readable store") or a made-up `ordered` one.
    @Test("a missing to-one key or position column is a column finding only, not an unreadable store or a wrong order")
    func missingColumnsAreNotReadAsValues() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let bookmarks = try #require(Corpus.freshStores.first { $0.name == "bookmarks" })
        let copy = try directory.copy(bookmarks.store)
        try StoreTestSupport.damage(copy, "DROP INDEX ZBOOKMARKENTITY_ZPARENT_INDEX; ALTER TABLE ZBOOKMARKENTITY DROP COLUMN ZPARENT; ALTER TABLE ZBOOKMARKENTITY DROP COLUMN Z_FOK_PARENT")
        let findings = try Self.verify(copy, model: bookmarks.model)
        #expect(findings.map(\.check) == ["column", "column"], "\(findings)")
        #expect(findings.map(\.location) == ["ZBOOKMARKENTITY.ZPARENT", "ZBOOKMARKENTITY.Z_FOK_PARENT"], "\(findings)")
    }

    @Test("recipes: exactly three hash findings (Image, Ingredient, Recipe) and nothing else")
    func recipesHashes() throws {
        let findings = try Self.verify(Self.recipes.store.path, model: Self.recipes.model)
        #expect(findings.map(\.check) == ["hash", "hash", "hash"])
        #expect(findings.map(\.location) == ["entity Image", "entity Ingredient", "entity Recipe"])
        #expect(findings[1].found == "5tCLlA1r9p1UWdOTr3XJ+ZzBr6bxraWAs3Vt9zCAZek=")
    }

    @Test("verify reads only: a corpus copy and its folder are unchanged afterwards")
    func readOnly() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let copy = try directory.copy(Self.coredataplus.store)  // a WAL-mode store
        let before = try StoreBuilder.sha256(ofFile: copy)
        _ = try Self.verify(copy, model: Self.coredataplus.model)
        _ = try Self.verify(copy, model: nil)
        #expect(try StoreBuilder.sha256(ofFile: copy) == before)
        #expect(StoreTestSupport.listing(directory.url) == ["SampleModelV1.sqlite"])
    }

    /// One kind of damage done to a copy of a corpus store, and the finding it must cause.
    struct Damage: Sendable, CustomStringConvertible {
        var description: String
        var store: Int
        var sql: String
        var check: String
        var location: String
        /// Other checks the same damage rightly trips (a dropped table takes its index along).
        var alsoExpected: [String] = []
    }

    static let damages: [Damage] = [
        .init(description: "a uniqueness constraint's index deleted", store: 1, sql: "DROP INDEX Z_Car_UNIQUE_numberPlate",
              check: "index", location: "index Z_Car_UNIQUE_numberPlate on ZCAR"),
        .init(description: "a uniqueness constraint's index no longer unique", store: 1,
              sql: "DROP INDEX Z_Car_UNIQUE_numberPlate; CREATE INDEX Z_Car_UNIQUE_numberPlate ON ZCAR (ZNUMBERPLATE COLLATE BINARY ASC)",
              check: "index", location: "index Z_Car_UNIQUE_numberPlate on ZCAR"),
        .init(description: "a unique index the model does not imply", store: 3, sql: "CREATE UNIQUE INDEX RecipeByName ON ZRECIPE (ZNAME)",
              check: "index", location: "index RecipeByName"),
        .init(description: "a wrong Z_ENT", store: 1, sql: "UPDATE ZCAR SET Z_ENT = 4 WHERE Z_PK = (SELECT MIN(Z_PK) FROM ZCAR)",
              check: "row-entity", location: "table ZCAR"),
        .init(description: "a dangling foreign key", store: 1,
              sql: "UPDATE ZCAR SET ZOWNER = 999 WHERE Z_PK = (SELECT MIN(Z_PK) FROM ZCAR WHERE ZOWNER IS NOT NULL)",
              check: "reference", location: "ZCAR.ZOWNER (Car.owner)"),
        .init(description: "a foreign key to a row of the wrong entity", store: 3,
              sql: "UPDATE ZINGREDIENT SET ZRECIPE = NULL; UPDATE ZRECIPE SET Z_ENT = 4 WHERE Z_PK = (SELECT MIN(Z_PK) FROM ZRECIPE)",
              check: "row-entity", location: "table ZRECIPE"),
        .init(description: "Z_MAX too low", store: 1, sql: "UPDATE Z_PRIMARYKEY SET Z_MAX = 3 WHERE Z_ENT = 1",
              check: "z-max", location: "Z_PRIMARYKEY row of Car"),
        .init(description: "a missing column", store: 4, sql: "ALTER TABLE ZJOURNALENTRY DROP COLUMN ZWIND",
              check: "column", location: "ZJOURNALENTRY.ZWIND"),
        .init(description: "an extra column", store: 4, sql: "ALTER TABLE ZJOURNALENTRY ADD COLUMN ZMOOD VARCHAR",
              check: "column", location: "ZJOURNALENTRY.ZMOOD"),
        .init(description: "a renamed Z_NAME", store: 2, sql: "UPDATE Z_PRIMARYKEY SET Z_NAME = 'Writer' WHERE Z_ENT = 1",
              check: "primary-key", location: "Z_PRIMARYKEY Z_ENT 1"),
        .init(description: "a missing metadata row", store: 0, sql: "DELETE FROM Z_METADATA",
              check: "metadata", location: "Z_METADATA"),
        .init(description: "a missing join table", store: 2, sql: "DROP TABLE Z_1BOOKS",
              check: "table", location: "table Z_1BOOKS", alsoExpected: ["index"]),
    ]

    @Test("damage to a copy of a corpus store gives the right finding", arguments: damages)
    func damage(_ damage: Damage) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = Corpus.stores[damage.store]
        let copy = try directory.copy(store.store)
        try StoreTestSupport.damage(copy, damage.sql)
        let findings = try Self.verify(copy, model: store.model).filter { store.name != "recipes" || $0.check != "hash" }
        #expect(findings.contains { $0.check == damage.check && $0.location == damage.location }, "\(findings)")
        let allowed = Set([damage.check, "reference"] + damage.alsoExpected)
        #expect(findings.allSatisfy { allowed.contains($0.check) }, "\(findings)")
    }

    @Test("a flipped page is caught by the integrity check")
    func flippedPage() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = Corpus.stores[3]
        let copy = try directory.copy(store.store)
        let root = try Database(path: copy, mode: .readOnly).scalar("SELECT rootpage FROM sqlite_master WHERE name = 'ZINGREDIENT'")?.integer
        let page = Int(try #require(root))
        var bytes = try Data(contentsOf: URL(fileURLWithPath: copy))
        for offset in (page - 1) * 4096 + 8 ..< (page - 1) * 4096 + 24 { bytes[offset] ^= 0xFF }
        try bytes.write(to: URL(fileURLWithPath: copy))
        let findings = try Self.verify(copy, model: store.model)
        #expect(findings.contains { $0.check == "integrity" || $0.check == "sqlite" }, "\(findings)")
    }

    @Test("a file that is not a database and an empty file are read and refused, a finding (exit 1 by the one rule); a missing file or a folder cannot be read, a usage error (exit 2)")
    func notADatabase() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = try directory.write("hello, world", to: "fake.sqlite")
        #expect(try Self.verify(path, model: nil).map(\.description) == ["sqlite: \(path): expected an SQLite database, found no 'SQLite format 3' header"])
        let empty = try directory.write("", to: "empty.sqlite")
        #expect(try Self.verify(empty, model: nil).map(\.description) == ["sqlite: \(empty): expected an SQLite database, found an empty file"])
        #expect(throws: StoreVerifier.UsageError.self) { try Self.verify(directory.path("missing.sqlite"), model: nil) }
        #expect(throws: StoreVerifier.UsageError.self) { try Self.verify(directory.path(""), model: nil) }
    }

    @Test("a -wal, or a journal that is not hot, beside a store Core Data wrote or a used one is a note; beside a seed checked as built, or a hot journal anywhere, a finding")
    func walBeside() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let copy = try directory.copy(Corpus.stores[4].store)
        try directory.write("", to: "SurfJournalDatabase.sqlite-wal")
        let findings = try Self.verify(copy, model: Corpus.stores[4].model, notes: true)
        #expect(findings.map(\.check) == ["sidecar"] && findings.allSatisfy(\.isNote), "\(findings)")
        // Empty, or its header zeroed (SQLite's PERSIST mode after a commit): not hot, a note.
        for stale in [Data(), Data(count: 512)] {
            try stale.write(to: URL(fileURLWithPath: copy + "-journal"))
            let journal = try Self.verify(copy, model: Corpus.stores[4].model, notes: true)
            #expect(journal.map(\.check) == ["sidecar", "sidecar"] && journal.allSatisfy(\.isNote), "\(journal)")
        }
        // Its magic number first: an interrupted write, a finding.
        #expect(StoreFile.isHotJournal(copy + "-journal") == false)
        try Data(StoreFile.journalMagic + [UInt8](repeating: 0, count: 504)).write(to: URL(fileURLWithPath: copy + "-journal"))
        #expect(StoreFile.isHotJournal(copy + "-journal"))
        let hot = try Self.verify(copy, model: Corpus.stores[4].model, notes: true)
        #expect(hot.contains { $0.check == "sidecar" && $0.location == copy + "-journal" && !$0.isNote }, "\(hot)")
        try FileManager.default.removeItem(atPath: copy + "-journal")
        // A seed ships as one file: a log beside it is a finding.
        let model = try StoreFixture.model(LibraryModel.entities, in: directory)
        let seed = directory.path("seed.sqlite")
        try StoreFixture.build(model, at: seed) { try LibraryModel.fill($0, order: [1, 2]) }
        try directory.write("", to: "seed.sqlite-wal")
        let seedFindings = try StoreVerifier(storePath: seed, layout: try StoreLayout(model: model), asBuilt: true).verify()
        #expect(seedFindings.map(\.check) == ["sidecar"] && !seedFindings[0].isNote, "\(seedFindings)")
        // A store installed from a seed and used by its app, in WAL mode: a note.
        let used = try StoreVerifier(storePath: seed, layout: try StoreLayout(model: model)).verify()
        #expect(used.map(\.check) == ["sidecar"] && used[0].isNote, "\(used)")
    }

    @Test("a store checked against another model: hashes and schema findings")
    func wrongModel() throws {
        let findings = try Self.verify(Corpus.stores[2].store.path, model: Corpus.stores[4].model)
        #expect(findings.contains { $0.check == "hash" && $0.location == "entity JournalEntry" })
        #expect(findings.contains { $0.check == "hash" && $0.location == "entity Book" && $0.expected == "no such entity in the model" })
        #expect(findings.contains { $0.check == "table" && $0.location == "table ZJOURNALENTRY" })
    }

    @Test("without a model: Z_MAX, Z_ENT and the metadata are still checked")
    func withoutModel() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let copy = try directory.copy(Self.coredataplus.store)
        #expect(try Self.verify(copy, model: nil).isEmpty)
        try StoreTestSupport.damage(copy, "UPDATE Z_PRIMARYKEY SET Z_MAX = 1 WHERE Z_ENT = 4; UPDATE ZCAR SET Z_ENT = 9 WHERE Z_PK = 5")
        let findings = try Self.verify(copy, model: nil)
        #expect(findings.map(\.check).sorted() == ["row-entity", "z-max"])
    }
}

extension StoreVerifierTests {
    @Test("ordered relationships: two objects at one position, or one without a position, within an owner are findings (bookmarks' Z_FOK_ columns)",
          arguments: [("UPDATE ZBOOKMARKENTITY SET Z_FOK_PARENT = 2048 WHERE ZPARENT IS NOT NULL", "ZBOOKMARKENTITY.Z_FOK_PARENT (BookmarkEntity.parent)", "given to several objects"),
                      ("UPDATE ZBOOKMARKENTITY SET Z_FOK_PARENT = NULL WHERE Z_PK = (SELECT MAX(Z_PK) FROM ZBOOKMARKENTITY WHERE ZPARENT IS NOT NULL)",
                       "ZBOOKMARKENTITY.Z_FOK_PARENT (BookmarkEntity.parent)", "without one"),
                      ("UPDATE Z_1FAVORITES SET Z_FOK_1FAVORITES = 2048", "Z_1FAVORITES.Z_FOK_1FAVORITES", "given to several objects")])
    func orderedPositions(_ sql: String, _ location: String, _ found: String) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = try #require(Corpus.freshStores.first { $0.name == "bookmarks" })
        #expect(try Self.verify(store.store.path, model: store.model).isEmpty)
        let copy = try directory.copy(store.store)
        try StoreTestSupport.damage(copy, sql)
        let findings = try Self.verify(copy, model: store.model)
        #expect(findings.count == 1 && findings[0].check == "ordered" && findings[0].location.hasPrefix(location)
                && findings[0].found.contains(found), "\(findings)")
    }
}
