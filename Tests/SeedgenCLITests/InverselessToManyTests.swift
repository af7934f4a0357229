import Foundation
import SeedgenTestSupport
import Testing

/// A to-many without an inverse (SwiftData's `var spec: [Ingredient]` where `Ingredient` has no
/// property back): each member's row holds its owner's `Z_PK` in `Z<n><NAME>` (a real store's
/// `ZINGREDIENT.Z1SPEC`). Built, checked, dumped, compared and updated like any link; before,
/// every command but `verify` refused such a model.
@Suite("A to-many without an inverse")
struct InverselessToManyTests {
    static let model = """
        <?xml version="1.0"?>
        <model>
            <entity name="Cocktail">
                <attribute name="name" attributeType="String"/>
                <relationship name="spec" optional="YES" toMany="YES" maxCount="3" deletionRule="Cascade" destinationEntity="Ingredient"/>
                <uniquenessConstraints><uniquenessConstraint><constraint value="name"/></uniquenessConstraint></uniquenessConstraints>
            </entity>
            <entity name="Ingredient">
                <attribute name="name" attributeType="String"/>
                <uniquenessConstraints><uniquenessConstraint><constraint value="name"/></uniquenessConstraint></uniquenessConstraints>
            </entity>
        </model>
        """

    /// Lime is given on its own and named by key; the others are nested.
    static let v1 = """
        {"Ingredients": [{"name": "Lime"}],
         "Cocktails": [{"name": "Daiquiri", "spec": [{"name": "Rum"}, "Lime", {"name": "Sugar"}]},
                       {"name": "Mojito", "spec": [{"name": "Mint"}]}]}
        """

    static let owners = "SELECT i.ZNAME, IFNULL(c.ZNAME, '-') FROM ZINGREDIENT i LEFT JOIN ZCOCKTAIL c ON c.Z_PK = i.Z1SPEC ORDER BY 1"

    static func build(_ json: String, as name: String, in directory: TemporaryDirectory) throws -> (path: String, result: SeedgenTool.Result) {
        let input = try directory.write(json, to: "\(name).json")
        let output = directory.path("\(name).sqlite")
        return (output, try SeedgenTool.run(["build", "--model", directory.path("Bar.xcdatamodel"), "--output", output, input]))
    }

    static func setUp() throws -> TemporaryDirectory {
        let directory = try TemporaryDirectory()
        _ = try directory.write(model, to: "Bar.xcdatamodel/contents")
        return directory
    }

    @Test("nested members and members named by key hold their owner; verify, dump and a build from the dump agree")
    func buildDumpBuild() throws {
        let directory = try Self.setUp()
        defer { directory.remove() }
        let model = ["--model", directory.path("Bar.xcdatamodel")]
        let (seed, build) = try Self.build(Self.v1, as: "v1", in: directory)
        #expect(build.status == 0, "\(build.error)")
        #expect(try SQLiteShell.rows(seed, Self.owners) == ["Lime|Daiquiri", "Mint|Mojito", "Rum|Daiquiri", "Sugar|Daiquiri"])
        let verify = try SeedgenTool.run(["verify", "--as-built", seed] + model)
        #expect(verify.status == 0, "\(verify.output)")
        let fetch = try SeedgenTool.run(["fetch", seed, "--entity", "Cocktail", "--predicate", "ANY spec.name == 'Mint'"] + model)
        #expect(fetch.status == 0 && fetch.output.contains("Mojito") && !fetch.output.contains("Daiquiri"), "\(fetch.output)\(fetch.error)")
        let dump = try SeedgenTool.run(["dump", seed, "-o", directory.path("dump.xml")] + model)
        #expect(dump.status == 0, "\(dump.error)")
        let rebuilt = try SeedgenTool.run(["build", "--output", directory.path("again.sqlite"), directory.path("dump.xml")] + model)
        #expect(rebuilt.status == 0, "\(rebuilt.error)")
        #expect(try SQLiteShell.rows(directory.path("again.sqlite"), Self.owners) == SQLiteShell.rows(seed, Self.owners))
        let same = try SeedgenTool.run(["diff", seed, directory.path("again.sqlite")] + model)
        #expect(same.status == 0, "\(same.output)\(same.error)")
    }

    @Test("a member given to two owners, and an owner over maxCount, are refused at their place; nothing is written")
    func refusals() throws {
        let directory = try Self.setUp()
        defer { directory.remove() }
        let (shared, twice) = try Self.build("""
            {"Ingredients": [{"name": "Lime"}],
             "Cocktails": [{"name": "Daiquiri", "spec": ["Lime"]},
                           {"name": "Gimlet", "spec": ["Lime"]}]}
            """, as: "shared", in: directory)
        #expect(twice.status == 1 && twice.error.contains("shared.json:3:") && twice.error.contains("is in Cocktail.spec of two objects"), "\(twice.error)")
        #expect(!FileManager.default.fileExists(atPath: shared))
        let (crowded, over) = try Self.build("""
            {"Cocktails": [{"name": "Punch", "spec": [{"name": "A"}, {"name": "B"}, {"name": "C"}, {"name": "D"}]}]}
            """, as: "crowded", in: directory)
        #expect(over.status == 1 && over.error.contains("crowded.json:1:16: Cocktail #1: spec has 4 object(s); the model allows 0...3"), "\(over.error)")
        #expect(!FileManager.default.fileExists(atPath: crowded))
    }

    @Test("diff names the owner whose members changed; update moves the seed's members and keeps the user's")
    func diffAndUpdate() throws {
        let directory = try Self.setUp()
        defer { directory.remove() }
        let model = ["--model", directory.path("Bar.xcdatamodel")]
        let (seed1, _) = try Self.build(Self.v1, as: "v1", in: directory)
        // Seed 2: Sugar moves from the Daiquiri to the Mojito; Rum leaves the Daiquiri's spec.
        let (seed2, build) = try Self.build("""
            {"Ingredients": [{"name": "Lime"}, {"name": "Rum"}],
             "Cocktails": [{"name": "Daiquiri", "spec": ["Lime"]},
                           {"name": "Mojito", "spec": [{"name": "Mint"}, {"name": "Sugar"}]}]}
            """, as: "v2", in: directory)
        #expect(build.status == 0, "\(build.error)")
        let diff = try SeedgenTool.run(["diff", seed1, seed2] + model)
        #expect(diff.status == 1, "\(diff.output)\(diff.error)")
        #expect(diff.output.contains(#"~ Cocktail[name="Daiquiri"]"#) && diff.output.contains(#"~ Cocktail[name="Mojito"]"#), "\(diff.output)")
        // The user put their own Tonic into the Mojito, and took Lime out of the Daiquiri.
        let store = try directory.install(seed1, as: "installed.sqlite")
        try SQLiteShell.execute("""
            INSERT INTO ZINGREDIENT (Z_PK, Z_ENT, Z_OPT, ZNAME, Z1SPEC) VALUES ((SELECT Z_MAX + 1 FROM Z_PRIMARYKEY WHERE Z_NAME = 'Ingredient'), 2, 1, 'Tonic',
              (SELECT Z_PK FROM ZCOCKTAIL WHERE ZNAME = 'Mojito'));
            UPDATE Z_PRIMARYKEY SET Z_MAX = Z_MAX + 1 WHERE Z_NAME = 'Ingredient';
            UPDATE ZINGREDIENT SET Z1SPEC = NULL, Z_OPT = Z_OPT + 1 WHERE ZNAME = 'Lime';
            """, on: store)
        let update = try SeedgenTool.run(["update", store, "--seed", seed2] + model)
        #expect(update.status == 0, "\(update.output)\(update.error)")
        #expect(try SQLiteShell.rows(store, Self.owners) == ["Lime|-", "Mint|Mojito", "Rum|-", "Sugar|Mojito", "Tonic|Mojito"])
        let verify = try SeedgenTool.run(["verify", store] + model)
        #expect(verify.status == 0, "\(verify.output)")
    }

    @Test("migrate refuses such a model, naming the relationship, and leaves the store as it was")
    func migrationRefused() throws {
        let directory = try Self.setUp()
        defer { directory.remove() }
        let (seed, _) = try Self.build(Self.v1, as: "v1", in: directory)
        let before = try Data(contentsOf: URL(fileURLWithPath: seed))
        let bundle = directory.path("Bar.xcdatamodeld")
        _ = try directory.write(Self.model, to: "Bar.xcdatamodeld/Bar.xcdatamodel/contents")
        _ = try directory.write(Self.model.replacingOccurrences(of: "<entity name=\"Ingredient\">", with: "<entity name=\"Ingredient\"><attribute name=\"note\" optional=\"YES\" attributeType=\"String\"/>"),
                                to: "Bar.xcdatamodeld/Bar 2.xcdatamodel/contents")
        _ = try directory.write("""
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0"><dict><key>_XCCurrentVersionName</key><string>Bar 2.xcdatamodel</string></dict></plist>
            """, to: "Bar.xcdatamodeld/.xccurrentversion")
        let migrate = try SeedgenTool.run(["migrate", seed, "--model", bundle])
        #expect(migrate.status == 1 && migrate.error.contains("'Cocktail.spec' is a to-many without an inverse"), "\(migrate.output)\(migrate.error)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: seed)) == before)
    }
}
