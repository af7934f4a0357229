import Foundation
import SeedgenTestSupport
import Testing

/// Objects without a key that the build named by a source identifier (`seedgen:id`, `@id`):
/// the seed record keeps the identifier as their name, so `diff` and `update` match them across
/// seeds by it (not by their values), and a dump gives it back. Shelves of
/// `DiffCommandTests.model` have no key; they come from entity XML, the rest from JSON.
@Suite("source identifiers name objects across seeds")
struct SourceIdentifierTests {
    typealias Build = DiffCommandTests

    static let books = """
        {"Authors": [{"name": "Ann"}]}
        """

    /// Shelves `top` (labelled `label`, holding books 1 and 2) and `l&w`.
    static func shelves(top label: String) -> String {
        """
        <Seed xmlns:seedgen="urn:seedgen:source">
          <Shelf seedgen:id="top" label="\(label)"/>
          <Shelf seedgen:id="l&amp;w" label="low"/>
          <Book isbn="1" title="One" seedgen:shelf="top"/>
          <Book isbn="2" title="Two" seedgen:shelf="top"/>
        </Seed>
        """
    }

    /// Builds the books and shelves into `name`.sqlite.
    static func build(top label: String, as name: String, in directory: TemporaryDirectory) throws -> String {
        let store = directory.path("\(name).sqlite")
        let books = try directory.write(Self.books, to: "\(name)-books.json")
        let shelves = try directory.write(Self.shelves(top: label), to: "\(name)-shelves.xml")
        let result = try SeedgenTool.run(["build", "--model", directory.path("Shelf.xcdatamodel"), "--output", store, "--quiet",
                                          "--key", "Book=isbn", books, shelves])
        #expect(result.status == 0, "\(result.error)")
        return store
    }

    @Test("diff: a relabelled shelf with the same seedgen:id is changed, not removed and added; its JSON names the identifier")
    func diffMatchesByIdentifier() throws {
        let directory = try Build.setUp()
        defer { directory.remove() }
        let old = try Self.build(top: "top", as: "v1", in: directory)
        let new = try Self.build(top: "upper", as: "v2", in: directory)
        let result = try Build.diff(old, new, directory)
        #expect(result.status == 1, "\(result.error)")
        let lines = result.output.split(separator: "\n").map(String.init)
        #expect(lines.contains(#"~ Shelf[seedgen:id="top"]: label "top" -> "upper""#), "\(result.output)")
        #expect(!lines.contains { $0.hasPrefix("+ ") || $0.hasPrefix("- ") }, "\(result.output)")
        let json = try Build.diff(old, new, directory, json: true)
        #expect(json.output.contains(#""identifier" : "top""#), "\(json.output)")
        #expect(try Build.diff(old, try Self.build(top: "top", as: "again", in: directory), directory).status == 0)
    }

    @Test("update: the seed's new label reaches the shelf the user's book is on; no second shelf, the same Z_PK")
    func updateMatchesByIdentifier() throws {
        let directory = try Build.setUp()
        defer { directory.remove() }
        let seed1 = try Self.build(top: "top", as: "v1", in: directory)
        let seed2 = try Self.build(top: "upper", as: "v2", in: directory)
        let store = try directory.install(seed1, as: "installed.sqlite")
        try SQLiteShell.execute("""
            INSERT INTO ZBOOK (Z_PK, Z_ENT, Z_OPT, ZISBN, ZTITLE, ZSHELF, Z_FOK_SHELF)
              VALUES ((SELECT Z_MAX + 1 FROM Z_PRIMARYKEY WHERE Z_NAME = 'Book'), 2, 1, 'mine', 'Mine',
                      (SELECT Z_PK FROM ZSHELF WHERE ZLABEL = 'top'), 3072);
            UPDATE Z_PRIMARYKEY SET Z_MAX = Z_MAX + 1 WHERE Z_NAME = 'Book';
            """, on: store)
        let shelfBefore = try SQLiteShell.rows(store, "SELECT Z_PK FROM ZSHELF WHERE ZLABEL = 'top'")
        let result = try UpdateCommandTests.update(store, to: seed2, directory)
        #expect(result.status == 0, "\(result.output)\(result.error)")
        #expect(result.output.contains(#"~ Shelf[seedgen:id="top"]"#), "\(result.output)")
        #expect(try SQLiteShell.rows(store, "SELECT Z_PK, ZLABEL FROM ZSHELF ORDER BY Z_PK") == [shelfBefore[0] + "|upper", "2|low"])
        #expect(try SQLiteShell.rows(store, "SELECT s.ZLABEL FROM ZBOOK b JOIN ZSHELF s ON s.Z_PK = b.ZSHELF WHERE b.ZISBN = 'mine'") == ["upper"])
        let verify = try SeedgenTool.run(["verify", store, "--model", directory.path("Shelf.xcdatamodel")])
        #expect(verify.status == 0, "\(verify.output)\(verify.error)")
    }

    /// Version 2: an entity `Aardvark` added, which sorts first, so every entity gets the next
    /// number: the migration leaves the record under the old ones (`SEEDGEN_RENUMBERED`).
    static let renumbered = Build.model.replacingOccurrences(of: #"<entity name="Author">"#, with: #"<entity name="Aardvark"><attribute name="size" optional="YES" attributeType="String"/></entity><entity name="Author">"#)

    @Test("after a migration that gives every entity a new number, the record stays as it was: dump gives the identifiers back, diff and update still match the relabelled shelf by its identifier; the update puts the record under the store's numbers")
    func identifiersThroughRenumbering() throws {
        let directory = try Build.setUp()
        defer { directory.remove() }
        #expect(Self.renumbered != Build.model, "DiffCommandTests.model changed: update renumbered")
        let store = try directory.install(try Self.build(top: "top", as: "v1", in: directory), as: "installed.sqlite", packed: false)
        let bundle = try ClubModels.writeBundle([("Shelf", Build.model), ("Shelf 2", Self.renumbered)], current: "Shelf 2", in: directory)
        let before = try SQLiteShell.rows(store, ShelfModel.recordRows)
        #expect(Set(before.map { $0.prefix(2) }) == ["1|", "2|", "3|"] && before.contains { $0.hasPrefix("3|") && $0.contains("|i ") }, "\(before)")
        let migrate = try SeedgenTool.run(["migrate", store, "--model", bundle])
        #expect(migrate.status == 0, "\(migrate.output)\(migrate.error)")
        #expect(try SQLiteShell.rows(store, ShelfModel.recordRows) == before, "the record as it was")
        #expect(try SQLiteShell.rows(store, "SELECT RECORDED, ENTITY FROM SEEDGEN_RENUMBERED ORDER BY RECORDED") == ["1|2", "2|3", "3|4"])
        let dump = try SeedgenTool.run(["dump", store, "--model", bundle])
        #expect(dump.status == 0, "\(dump.error)")
        let shelves = dump.output.split(separator: "\n").filter { $0.contains("seedgen:id=") && !$0.contains(##"seedgen:id="#"##) }
        #expect(shelves.count == 2 && shelves.allSatisfy { $0.contains("<Shelf ") }, "the shelves, and only they, named by their identifiers:\n\(dump.output)")
        let seed2 = directory.path("v2.sqlite")
        let build = try SeedgenTool.run(["build", "--model", bundle, "--output", seed2, "--quiet", "--key", "Book=isbn",
                                         try directory.write(Self.books, to: "v2-books.json"), try directory.write(Self.shelves(top: "upper"), to: "v2-shelves.xml")])
        #expect(build.status == 0, "\(build.error)")
        let diff = try SeedgenTool.run(["diff", store, seed2, "--model", bundle])
        #expect(diff.output.split(separator: "\n").filter { $0.hasPrefix("+ ") || $0.hasPrefix("~ ") || $0.hasPrefix("- ") } == [#"~ Shelf[seedgen:id="top"]: label "top" -> "upper""#], "\(diff.output)\(diff.error)")
        let update = try SeedgenTool.run(["update", store, "--seed", seed2, "--model", bundle])
        #expect(update.status == 0, "\(update.output)\(update.error)")
        #expect(update.output.split(separator: "\n").filter { $0.hasPrefix("+ ") || $0.hasPrefix("~ ") || $0.hasPrefix("- ") } == [#"~ Shelf[seedgen:id="top"]"#], "\(update.output)")
        #expect(try SQLiteShell.rows(store, "SELECT COUNT(*) FROM sqlite_master WHERE name = 'SEEDGEN_RENUMBERED'") == ["0"])
        let keys = "SELECT ENTITY, PK, KEY FROM SEEDGEN_SEEDED ORDER BY ENTITY, PK"
        #expect(try SQLiteShell.rows(store, keys) == SQLiteShell.rows(try directory.install(seed2, as: "seed2-installed.sqlite", packed: false), keys),
                "the record under the store's numbers, as an installed copy of the new seed's")
        #expect(try SeedgenTool.run(["verify", store, "--model", bundle]).status == 0)
    }

    @Test("dump gives recorded identifiers back (escaped) and names the others #Entity-k, never recorded: the rebuild is byte-identical")
    func dumpKeepsIdentifiers() throws {
        let directory = try Build.setUp()
        defer { directory.remove() }
        let model = directory.path("Shelf.xcdatamodel")
        for (index, source) in [Self.shelves(top: "top"), #"<Seed><Shelf label="a"/><Shelf label="a"/></Seed>"#].enumerated() {
            let input = try directory.write(source, to: "shelves\(index).xml")
            let (first, second, text) = try DumpTests.roundTrip(model: model, inputs: [input], in: directory)
            #expect(first == second, "\(text)")
            if index == 0 {
                #expect(text.contains(#"seedgen:id="top""#) && text.contains(#"seedgen:id="l&amp;w""#), "\(text)")
            } else {
                #expect(text.contains(##"seedgen:id="#Shelf-1""##) || !text.contains("seedgen:id"), "\(text)")
                #expect(try SQLiteShell.rows(directory.path("second.sqlite"), "SELECT count(*) FROM sqlite_master WHERE name = 'SEEDGEN_IDENTIFIED'") == ["0"])
            }
        }
    }

    @Test("an installed record names each object of one entity by its key, its identifier or its values, in one pass ordered by Z_PK: every object once, each with its row's digest")
    func recordNamesByKeyIdentifierAndValues() throws {
        let directory = try Build.setUp()
        defer { directory.remove() }
        // Shelves keyed by label where they give one (`--key`), else named by identifier, else
        // by their values (two alike: the second numbered), interleaved in Z_PK order.
        let shelves = try directory.write("""
            <Seed xmlns:seedgen="urn:seedgen:source">
              <Shelf label="b"/><Shelf seedgen:id="x"/><Shelf/><Shelf label="a"/><Shelf seedgen:id="w"/><Shelf/>
            </Seed>
            """, to: "shelves.xml")
        let seed = directory.path("seed.sqlite")
        let build = try SeedgenTool.run(["build", "--model", directory.path("Shelf.xcdatamodel"), "--output", seed, "--quiet",
                                         "--key", "Shelf=label", shelves])
        #expect(build.status == 0, "\(build.error)")
        let store = directory.path("installed.sqlite")
        let install = try SeedgenTool.run(["install", seed, store])
        #expect(install.status == 0, "\(install.error)")
        // Unpacked, as the first update reads it: the same keys and digests a full record holds.
        #expect(try FullRecord.unpack(at: store))
        let rows = try SQLiteShell.rows(store, """
            SELECT r.PK, substr(r.KEY, 1, 2), r.KEY LIKE '% #2', typeof(r.DIGEST), length(r.DIGEST)
            FROM SEEDGEN_SEEDED r JOIN Z_PRIMARYKEY p ON p.Z_ENT = r.ENTITY WHERE p.Z_NAME = 'Shelf' ORDER BY r.PK
            """)
        #expect(rows == ["1|k |0|blob|16", "2|i |0|blob|16", "3|c |0|blob|16", "4|k |0|blob|16", "5|i |0|blob|16", "6|c |1|blob|16"])
        // The four shelves without a label hold the same values, whichever part named them.
        let digests = try SQLiteShell.rows(store, """
            SELECT COUNT(DISTINCT hex(r.DIGEST)) FROM SEEDGEN_SEEDED r JOIN Z_PRIMARYKEY p ON p.Z_ENT = r.ENTITY
            WHERE p.Z_NAME = 'Shelf' GROUP BY r.PK IN (1, 4) ORDER BY 1
            """)
        #expect(digests == ["1", "2"])
    }
}
