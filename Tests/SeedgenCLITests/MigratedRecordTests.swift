import Foundation
import SeedgenTestSupport
import Testing

/// The seed record through migrations that rename and add columns: its digests are kept as
/// they are, with a rule in `SEEDGEN_DIGESTED` saying which columns they cover and which added
/// columns must hold the value the migration gave them; the next update settles them. Built on
/// `DiffCommandTests.model` (Book keyed by `--key Book=isbn`).
@Suite("the seed record through migrations")
struct MigratedRecordTests {
    typealias Build = DiffCommandTests

    /// Version 2: Book.price renamed cost (by renaming identifier), Book given pages (default 100).
    static let v2 = Build.model.replacingOccurrences(
        of: #"<attribute name="price" optional="YES" attributeType="Double" usesScalarValueType="YES"/>"#,
        with: #"<attribute name="cost" optional="YES" attributeType="Double" usesScalarValueType="YES" elementID="price"/>"#
            + #"<attribute name="pages" optional="YES" attributeType="Integer 16" defaultValueString="100" usesScalarValueType="YES"/>"#)
    /// Version 3: Book.title renamed heading, Book given shelved (default YES).
    static let v3 = v2.replacingOccurrences(
        of: #"<attribute name="title" optional="YES" attributeType="String"/>"#,
        with: #"<attribute name="heading" optional="YES" attributeType="String" elementID="title"/>"#
            + #"<attribute name="shelved" optional="YES" attributeType="Boolean" defaultValueString="YES" usesScalarValueType="YES"/>"#)
    /// Version 4: Book.pages removed (its values go: the record is digested again).
    static let v4 = v3.replacingOccurrences(
        of: #"<attribute name="pages" optional="YES" attributeType="Integer 16" defaultValueString="100" usesScalarValueType="YES"/>"#, with: "")

    static let record = "SELECT ENTITY, PK, KEY, hex(DIGEST) FROM SEEDGEN_SEEDED ORDER BY ENTITY, PK"

    /// Seed 1 installed, book 2 retitled by its user; the bundle of versions 1 and 2.
    static func installed(in directory: TemporaryDirectory) throws -> (store: String, bundle: String) {
        #expect(v2 != Build.model && v3 != v2 && v4 != v3, "DiffCommandTests.model changed: update these versions")
        let seed1 = try Build.build(Build.v1, as: "v1", in: directory)
        let store = try directory.copy(URL(fileURLWithPath: seed1), as: "installed.sqlite")
        try SQLiteShell.execute("UPDATE ZBOOK SET ZTITLE = 'mine', Z_OPT = Z_OPT + 1 WHERE ZISBN = '2'", on: store)
        let bundle = try ClubModels.writeBundle([("Shelf", Build.model), ("Shelf 2", v2)], current: "Shelf 2", in: directory)
        return (store, bundle)
    }

    /// A seed of `bundle`'s current version: version 1's objects, book 3 at price 13, the
    /// attributes `price` and `title` under the names that version gives them.
    static func seed(_ name: String, bundle: String, price: String = "price", title: String = "title", in directory: TemporaryDirectory) throws -> String {
        let source = try directory.write(Build.v1.replacingOccurrences(of: #""price": 3}"#, with: #""price": 13}"#)
            .replacingOccurrences(of: #""price""#, with: "\"\(price)\"").replacingOccurrences(of: #""title""#, with: "\"\(title)\""), to: "\(name).json")
        let seed = directory.path("\(name).sqlite")
        let build = try SeedgenTool.run(["build", "--model", bundle, "--output", seed, "--quiet", "--key", "Book=isbn", source])
        #expect(build.status == 0, "\(build.error)")
        return seed
    }

    /// The update's lines: book 3 updated, books 1 and 2 kept as the user changed them.
    static func expectBook3UpdatedOthersKept(_ update: SeedgenTool.Result) {
        let lines = Set(update.output.split(separator: "\n").map(String.init))
        for expected in [#"~ Book[isbn="3"]"#, #"= Book[isbn="1"] kept: the user changed it"#, #"= Book[isbn="2"] kept: the user changed it"#] {
            #expect(lines.contains(expected), "\(expected) in:\n\(update.output)")
        }
    }

    @Test("renamed and added columns: the record kept byte for byte, with a rule; an added column the user changed makes the object the user's; the update settles the rule")
    func keptWithARule() throws {
        let directory = try Build.setUp()
        defer { directory.remove() }
        let (store, bundle) = try Self.installed(in: directory)
        let before = try SQLiteShell.rows(store, Self.record)
        let migrate = try SeedgenTool.run(["migrate", store, "--model", bundle])
        #expect(migrate.status == 0, "\(migrate.output)\(migrate.error)")
        #expect(try SQLiteShell.rows(store, Self.record) == before, "no digest is rewritten")
        #expect(try SQLiteShell.rows(store, "SELECT COLUMN, VALUE FROM SEEDGEN_DIGESTED WHERE POSITION IS NULL") == ["ZPAGES|100"])
        #expect(try SQLiteShell.rows(store, "SELECT COUNT(*) FROM SEEDGEN_DIGESTED WHERE POSITION IS NOT NULL AND COLUMN = 'ZCOST'") == ["1"])
        // After the migration, the user sets book 1's new attribute: book 1 is the user's now.
        try SQLiteShell.execute("UPDATE ZBOOK SET ZPAGES = 7, Z_OPT = Z_OPT + 1 WHERE ZISBN = '1'", on: store)
        let seed2 = try Self.seed("v2", bundle: bundle, price: "cost", in: directory)
        let update = try SeedgenTool.run(["update", store, "--seed", seed2, "--model", bundle])
        #expect(update.status == 0, "\(update.output)\(update.error)")
        Self.expectBook3UpdatedOthersKept(update)
        #expect(try SQLiteShell.rows(store, "SELECT ZISBN, ZTITLE, ZCOST, ZPAGES FROM ZBOOK ORDER BY ZISBN") == ["1|Café|0.0|7", "2|mine|2.5|100", "3|Three|13.0|100"])
        #expect(try SQLiteShell.rows(store, "SELECT COUNT(*) FROM sqlite_master WHERE name = 'SEEDGEN_DIGESTED'") == ["0"], "settled by the update")
        let again = try SeedgenTool.run(["update", store, "--seed", seed2, "--model", bundle])
        #expect(again.status == 0 && again.output.contains("holds this seed already"), "\(again.output)\(again.error)")
        let verify = try SeedgenTool.run(["verify", store, "--model", bundle])
        #expect(verify.status == 0, "\(verify.output)")
    }

    @Test("v2 → v3 composes the rules (record still kept); v3 → v4 removes a column: digested again through the rule, the user's objects stay the user's")
    func chainedMigrations() throws {
        let directory = try Build.setUp()
        defer { directory.remove() }
        let (store, bundle) = try Self.installed(in: directory)
        let before = try SQLiteShell.rows(store, Self.record)
        #expect(try SeedgenTool.run(["migrate", store, "--model", bundle]).status == 0)
        try SQLiteShell.execute("UPDATE ZBOOK SET ZPAGES = 7, Z_OPT = Z_OPT + 1 WHERE ZISBN = '1'", on: store)
        _ = try ClubModels.writeBundle([("Shelf", Build.model), ("Shelf 2", Self.v2), ("Shelf 3", Self.v3)], current: "Shelf 3", in: directory)
        let migrate3 = try SeedgenTool.run(["migrate", store, "--model", bundle])
        #expect(migrate3.status == 0, "\(migrate3.output)\(migrate3.error)")
        #expect(try SQLiteShell.rows(store, Self.record) == before, "no digest is rewritten")
        #expect(try SQLiteShell.rows(store, "SELECT COLUMN, VALUE FROM SEEDGEN_DIGESTED WHERE POSITION IS NULL ORDER BY COLUMN") == ["ZPAGES|100", "ZSHELVED|1"])
        _ = try ClubModels.writeBundle([("Shelf", Build.model), ("Shelf 2", Self.v2), ("Shelf 3", Self.v3), ("Shelf 4", Self.v4)], current: "Shelf 4", in: directory)
        let migrate4 = try SeedgenTool.run(["migrate", store, "--model", bundle])
        #expect(migrate4.status == 0, "\(migrate4.output)\(migrate4.error)")
        #expect(try SQLiteShell.rows(store, "SELECT COUNT(*) FROM sqlite_master WHERE name = 'SEEDGEN_DIGESTED'") == ["0"])
        let changed = try SQLiteShell.rows(store, Self.record).filter { !before.contains($0) }.count
        #expect(changed == 1, "book 3, left as seeded, digested again; books 1 and 2, the user's, keep their digests")
        let seed4 = try Self.seed("v4", bundle: bundle, price: "cost", title: "heading", in: directory)
        let update = try SeedgenTool.run(["update", store, "--seed", seed4, "--model", bundle])
        #expect(update.status == 0, "\(update.output)\(update.error)")
        Self.expectBook3UpdatedOthersKept(update)
        #expect(try SQLiteShell.rows(store, "SELECT ZISBN, ZHEADING, ZCOST, ZSHELVED FROM ZBOOK ORDER BY ZISBN") == ["1|Café|0.0|1", "2|mine|2.5|1", "3|Three|13.0|1"])
        let verify = try SeedgenTool.run(["verify", store, "--model", bundle])
        #expect(verify.status == 0, "\(verify.output)")
    }

    /// Core Data migrating the store after seedgen did (in an app) leaves seedgen's tables as
    /// they are, the record's model (`SEEDGEN_MODEL`) then another than the store's: the rules
    /// say nothing of the rows, and the objects they covered stay as they are, as the user's.
    @Test("the record written for another model than the store's (migrated since by something else): its rules are dropped, not applied; nothing overwritten")
    func staleRules() throws {
        let directory = try Build.setUp()
        defer { directory.remove() }
        let (store, bundle) = try Self.installed(in: directory)
        #expect(try SeedgenTool.run(["migrate", store, "--model", bundle]).status == 0)
        try SQLiteShell.execute("ATTACH '\(directory.path("v1.sqlite"))' AS v1; UPDATE SEEDGEN_MODEL SET MODEL = (SELECT MODEL FROM v1.SEEDGEN_MODEL)", on: store)
        let seed2 = try Self.seed("v2", bundle: bundle, price: "cost", in: directory)
        let update = try SeedgenTool.run(["update", store, "--seed", seed2, "--model", bundle])
        #expect(update.status == 0, "\(update.output)\(update.error)")
        #expect(update.output.contains(#"= Book[isbn="3"] kept: the user changed it"#), "\(update.output)")
        #expect(try SQLiteShell.rows(store, "SELECT ZISBN, ZCOST FROM ZBOOK ORDER BY ZISBN") == ["1|0.0", "2|2.5", "3|3.0"])
        #expect(try SQLiteShell.rows(store, "SELECT COUNT(*) FROM sqlite_master WHERE name = 'SEEDGEN_DIGESTED'") == ["0"])
    }

    @Test("a damaged rule (a column its entity lacks, positions off, a column left out, an unknown entity, 20,000 rows): update (exit 2, unreadable) and migrate (exit 1) refuse it, named, the store's bytes unchanged", arguments: [
        #"UPDATE SEEDGEN_DIGESTED SET COLUMN = 'ZTITLE"; DROP TABLE ZBOOK; --' WHERE COLUMN = 'ZPAGES'"#,
        "UPDATE SEEDGEN_DIGESTED SET POSITION = POSITION + 1 WHERE POSITION IS NOT NULL",
        "DELETE FROM SEEDGEN_DIGESTED WHERE COLUMN = 'ZISBN'",
        "UPDATE SEEDGEN_DIGESTED SET ENTITY = 99",
        "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 20000) INSERT INTO SEEDGEN_DIGESTED SELECT 2, 'Z' || i, NULL, 0 FROM n",
    ])
    func hostileRule(_ tampering: String) throws {
        let directory = try Build.setUp()
        defer { directory.remove() }
        let (store, bundle) = try Self.installed(in: directory)
        #expect(try SeedgenTool.run(["migrate", store, "--model", bundle]).status == 0)
        try SQLiteShell.execute(tampering, on: store)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: store))
        let seed2 = try Self.seed("v2", bundle: bundle, price: "cost", in: directory)
        let update = try SeedgenTool.run(["update", store, "--seed", seed2, "--model", bundle])
        #expect(update.status == 2 && update.error.contains("SEEDGEN_DIGESTED"), "\(update.output)\(update.error)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: store)) == bytes)
        _ = try ClubModels.writeBundle([("Shelf", Build.model), ("Shelf 2", Self.v2), ("Shelf 3", Self.v3)], current: "Shelf 3", in: directory)
        let migrate = try SeedgenTool.run(["migrate", store, "--model", bundle])
        #expect(migrate.status == 1 && migrate.error.contains("SEEDGEN_DIGESTED"), "\(migrate.output)\(migrate.error)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: store)) == bytes)
        #expect(FileManager.default.fileExists(atPath: store + "-journal") == false)
    }
}
