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

    @Test("a file that is not a database is a finding; a missing file is a usage error")
    func notADatabase() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = try directory.write("hello, world", to: "fake.sqlite")
        let findings = try Self.verify(path, model: nil)
        #expect(findings.map(\.check) == ["integrity"])
        #expect(throws: StoreVerifier.UsageError.self) { try Self.verify(directory.path("missing.sqlite"), model: nil) }
    }

    @Test("a -wal beside a store Core Data wrote is a note; beside a seed, or a hot journal anywhere, a finding")
    func walBeside() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let copy = try directory.copy(Corpus.stores[4].store)
        try directory.write("", to: "SurfJournalDatabase.sqlite-wal")
        let findings = try Self.verify(copy, model: Corpus.stores[4].model, notes: true)
        #expect(findings.map(\.check) == ["sidecar"] && findings.allSatisfy(\.isNote), "\(findings)")
        try directory.write("", to: "SurfJournalDatabase.sqlite-journal")
        let journal = try Self.verify(copy, model: Corpus.stores[4].model, notes: true)
        #expect(journal.filter { !$0.isNote }.map(\.location) == [copy + "-journal"], "\(journal)")
        // A seed ships as one file: a log beside it is a finding.
        let model = try StoreTestSupport.model(StoreBuilderTests.library, in: directory)
        let seed = directory.path("seed.sqlite")
        try StoreTestSupport.build(model, at: seed) { try StoreBuilderTests.fill($0, order: [1, 2]) }
        try directory.write("", to: "seed.sqlite-wal")
        let seedFindings = try StoreVerifier(storePath: seed, layout: try StoreLayout(model: model)).verify()
        #expect(seedFindings.map(\.check) == ["sidecar"] && !seedFindings[0].isNote, "\(seedFindings)")
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

@Suite("Content digest")
struct ContentDigestTests {
    @Test("an edited row in a store seedgen wrote breaks its content digest; verify reports it")
    func editedRow() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let model = try StoreTestSupport.model(StoreBuilderTests.library, in: directory)
        let layout = try StoreLayout(model: model)
        let path = directory.path("store.sqlite")
        try StoreTestSupport.build(model, at: path) { try StoreBuilderTests.fill($0, order: [1, 2]) }
        #expect(try StoreVerifier(storePath: path, layout: layout).verify().isEmpty)
        try StoreTestSupport.damage(path, "UPDATE ZBOOK SET ZTITLE = 'Forged' WHERE Z_PK = 2")
        let findings = try StoreVerifier(storePath: path, layout: layout).verify()
        // The rows digest differently, and the file's bytes no longer match the seal in Z_UUID.
        #expect(findings.map(\.check) == ["content-digest", "seal"])
    }

    @Test("a dangling join-table row is reported in a store seedgen wrote")
    func danglingJoinRow() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let model = try StoreTestSupport.model(StoreBuilderTests.library, in: directory)
        let path = directory.path("store.sqlite")
        try StoreTestSupport.build(model, at: path) { database in
            try StoreBuilderTests.fill(database, order: [1])
            try database.execute("INSERT INTO Z_1BOOKS (Z_1AUTHORS, Z_2BOOKS) VALUES (1, 42)")
        }
        let findings = try StoreVerifier(storePath: path, layout: try StoreLayout(model: model)).verify()
        #expect(findings.map(\.location) == ["Z_1BOOKS.Z_2BOOKS (Author.books)"])
        #expect(findings.first?.found.contains("(42)") == true)
    }
}

@Suite("Seal and row bookkeeping")
struct SealTests {
    /// The library store of the builder tests, built into `directory`.
    static func libraryStore(in directory: TemporaryDirectory) throws -> (model: DataModel, path: String) {
        let model = try StoreTestSupport.model(StoreBuilderTests.library, in: directory)
        let path = directory.path("store.sqlite")
        try StoreTestSupport.build(model, at: path) { try StoreBuilderTests.fill($0, order: [1, 2]) }
        return (model, path)
    }

    /// Whether the seal of the store at `path` is broken once the byte at `offset` of `original`
    /// is changed (`mask` flips its bits) and written there.
    static func sealBreaks(flipping offset: Int, of original: Data, at path: String, mask: UInt8 = 0xFF) throws -> Bool {
        var bytes = original
        bytes[offset] ^= mask
        try bytes.write(to: URL(fileURLWithPath: path))
        if case .broken = try StoreSeal.check(path: path) { return true }
        return false
    }

    @Test("a changed byte anywhere breaks the seal; the seal of an untouched store holds")
    func sealCatchesAByteTheDigestCannotSee() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let (model, path) = try Self.libraryStore(in: directory)
        #expect(try StoreSeal.check(path: path) == .intact)
        // A reserved byte of the SQLite header: no row changes, so only the seal can notice.
        #expect(try Self.sealBreaks(flipping: 80, of: Data(contentsOf: URL(fileURLWithPath: path)), at: path))
        let findings = try StoreVerifier(storePath: path, layout: try StoreLayout(model: model)).verify()
        #expect(findings.map(\.check) == ["seal"])
    }

    @Test("the pieces seal covers every 4 MiB piece, the last short one too: a byte changed in any piece breaks it")
    func piecesSeal() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let model = try StoreTestSupport.model("<entity name=\"Blob\"><attribute name=\"data\" optional=\"YES\" attributeType=\"Binary\"/></entity>", in: directory)
        let path = directory.path("store.sqlite")
        try StoreTestSupport.build(model, at: path) { database in
            // About 9 MiB of rows: three pieces.
            let insert = try database.prepare("INSERT INTO ZBLOB (Z_PK, Z_ENT, Z_OPT, ZDATA) VALUES (?, 1, 1, randomblob(100000))")
            for key in 1...95 { try insert.bind([.integer(Int64(key))]); try insert.run() }
        }
        let original = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(original.count > 2 * StoreSeal.pieceSize && original.count < 3 * StoreSeal.pieceSize)
        #expect(try StoreSeal.check(path: path) == .intact)
        for offset in [StoreSeal.pieceSize - 1, StoreSeal.pieceSize, original.count - 1] {
            #expect(try Self.sealBreaks(flipping: offset, of: original, at: path, mask: 0x01), "a byte changed at \(offset)")
        }
    }

    @Test("a seed sealed with the whole-file scheme of earlier versions still checks: intact, and broken by a changed byte")
    func wholeFileSealStillChecks() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let (model, path) = try Self.libraryStore(in: directory)
        // Reseal as version 1 would have: placeholder, the scheme's name, then the whole-file seal.
        var metadata = try StoreMetadata(decoding: try #require(try Database(path: path, mode: .readOnly).metadataRow()?.plist))
        metadata.seal = StoreSeal.wholeFileScheme
        let placeholder = String(decoding: StoreSeal.placeholder, as: UTF8.self)
        try Database(path: path, mode: .readWrite).run("UPDATE Z_METADATA SET Z_UUID = ?, Z_PLIST = ?", [.text(placeholder), .blob(metadata.encoded())])
        try StoreSeal.seal(path: path, scheme: StoreSeal.wholeFileScheme)
        #expect(try StoreSeal.check(path: path) == .intact)
        #expect(try StoreVerifier(storePath: path, layout: try StoreLayout(model: model)).verify().isEmpty)
        #expect(try Self.sealBreaks(flipping: 80, of: Data(contentsOf: URL(fileURLWithPath: path)), at: path))
    }

    @Test("Z_OPT below 1 and a one-to-one whose partner points elsewhere are reported")
    func rowVersionsAndOneToOneInverses() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let model = try StoreTestSupport.model("""
            <entity name="Person" syncable="YES">
                <attribute name="name" optional="YES" attributeType="String"/>
                <relationship name="desk" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Desk" inverseName="owner" inverseEntity="Desk"/>
            </entity>
            <entity name="Desk" syncable="YES">
                <relationship name="owner" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Person" inverseName="desk" inverseEntity="Person"/>
            </entity>
            """, in: directory)
        let layout = try StoreLayout(model: model)
        let path = directory.path("store.sqlite")
        try StoreTestSupport.build(model, at: path) { database in
            try database.execute("""
                INSERT INTO ZPERSON (Z_PK, Z_ENT, Z_OPT, ZDESK) VALUES (1, 2, 1, 1), (2, 2, 1, NULL);
                INSERT INTO ZDESK (Z_PK, Z_ENT, Z_OPT, ZOWNER) VALUES (1, 1, 1, 1);
                """)
        }
        #expect(try StoreVerifier(storePath: path, layout: layout).verify().isEmpty)
        try StoreTestSupport.damage(path, "UPDATE ZDESK SET ZOWNER = 2; UPDATE ZPERSON SET Z_OPT = 0 WHERE Z_PK = 2")
        let checks = try StoreVerifier(storePath: path, layout: layout).verify().map(\.check)
        #expect(checks.contains("inverse"))
        #expect(checks.contains("row-version"))
    }
}

@Suite("Model default values")
struct DefaultValueTests {
    func attribute(_ type: AttributeType, _ text: String?) -> AttributeDescription {
        AttributeDescription(name: "a", type: type, isOptional: true, defaultValue: text)
    }

    @Test("each type's default as its column stores it; a bad one is an error")
    func storedDefaults() throws {
        #expect(try attribute(.integer16, " 42 ").storedDefaultValue() == .integer(42))
        #expect(try attribute(.double, "0.5").storedDefaultValue() == .real(0.5))
        #expect(try attribute(.float, "0.1").storedDefaultValue() == .real(Double(Float(0.1))))
        #expect(try attribute(.boolean, "YES").storedDefaultValue() == .integer(1))
        #expect(try attribute(.boolean, "false").storedDefaultValue() == .integer(0))
        #expect(try attribute(.date, "60.5").storedDefaultValue() == .real(60.5))
        #expect(try attribute(.string, " x ").storedDefaultValue() == .text(" x "))
        #expect(try attribute(.string, nil).storedDefaultValue() == nil)
        #expect(try attribute(.uuid, "00000000-0000-0000-0000-000000000001").storedDefaultValue() == .blob(Array(repeating: 0, count: 15) + [1]))
        #expect(throws: DefaultValueError.self) { try attribute(.integer16, "70000").storedDefaultValue() }
        // An Integer default that is no integer reads as Foundation's longLongValue reads it, said in a warning.
        #expect(try attribute(.integer32, "NO").storedDefaultValue() == .integer(0))
        #expect(attribute(.integer32, "NO").defaultValueReading?.contains("read as 0") == true)
        #expect(try attribute(.integer64, "-12abc").storedDefaultValue() == .integer(-12))
        #expect(attribute(.integer16, "12").defaultValueReading == nil)
        #expect(throws: DefaultValueError.self) { try attribute(.integer16, "99999 bottles").storedDefaultValue() }
        #expect(throws: DefaultValueError.self) { try attribute(.boolean, "maybe").storedDefaultValue() }
        #expect(throws: DefaultValueError.self) { try attribute(.date, "2012-06-08").storedDefaultValue() }
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
