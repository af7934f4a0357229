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
        let store = try directory.copy(URL(fileURLWithPath: seed1), as: "installed.sqlite")
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
                #expect(try SQLiteShell.rows(directory.path("second.sqlite"), "SELECT count(*) FROM SEEDGEN_SEEDED WHERE KEY LIKE 'i %'") == ["0"])
            }
        }
    }
}
