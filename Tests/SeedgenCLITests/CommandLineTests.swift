import Foundation
import SeedgenTestSupport
import Testing


@Suite("seedgen command line")
struct CommandLineTests {
    @Test("the executable is found beside the tests")
    func executableExists() {
        #expect(SeedgenTool.executable != nil, "runner: \(CommandLine.arguments[0])")
    }

    @Test("hash --json prints the corpus hashes", corpusTrait)
    func hashJSON() throws {
        let store = Corpus.stores[1]
        let result = try SeedgenTool.run(["hash", "--model", store.model.path, "--json"])
        #expect(result.status == 0, "\(result.error)")
        let hashes = try JSONDecoder().decode([String: String].self, from: Data(result.output.utf8))
        #expect(hashes["Car"] == "nlVVKQchWCING6zS+Ao9rUkZ90oyqovp7iKmp7QSbI8=")
        #expect(hashes["ExpensiveSportCar"] == "PcfjKxvkW1pMeVrJrz4dEKpyItPGmugFu+tECL3rpIA=")
        #expect(hashes.count == 4)
        let plain = try SeedgenTool.run(["hash", "--model", store.model.path])
        #expect(plain.output.split(separator: "\n").first?.hasPrefix("Car ") == true)
    }

    @Test("verify exits 0 when clean, 1 with findings, 2 on usage errors", corpusTrait)
    func verifyExitCodes() throws {
        let clean = Corpus.stores[1]
        let result = try SeedgenTool.run(["verify", clean.store.path, "--model", clean.model.path])
        #expect(result.status == 0 && result.output.hasSuffix(": clean\n"), "\(result)")

        let recipes = Corpus.stores[3]
        let findings = try SeedgenTool.run(["verify", recipes.store.path, "--model", recipes.model.path])
        #expect(findings.status == 1)
        let lines = findings.output.split(separator: "\n")
        #expect(lines.count == 4)
        #expect(lines[0].hasPrefix("hash: entity Image: expected "))
        #expect(lines[0].contains(", found njbxNx1A/bZrU1DVRF9Kx6AYc/E6XKYaVqbNJLdYlC8="))

        let json = try SeedgenTool.run(["verify", recipes.store.path, "--model", recipes.model.path, "--json"])
        #expect(json.status == 1)
        struct Report: Decodable { var clean: Bool; var findings: [[String: String]] }
        let report = try JSONDecoder().decode(Report.self, from: Data(json.output.utf8))
        #expect(!report.clean && report.findings.map { $0["location"] } == ["entity Image", "entity Ingredient", "entity Recipe"])

        #expect(try SeedgenTool.run(["verify", "/nonexistent/store.sqlite"]).status == 2)
        #expect(try SeedgenTool.run(["verify"]).status == 2)
        #expect(try SeedgenTool.run(["verify", clean.store.path, "--bogus"]).status == 2)
        let badModel = try SeedgenTool.run(["verify", clean.store.path, "--model", "/nonexistent/model"])
        #expect(badModel.status == 2 && badModel.error.contains("/nonexistent/model"))
    }

    /// Each process draws its own seed for the key tables' hash (`KeyBytes.seed`): the tables
    /// probe differently, the store must not differ.
    @Test("two runs of a keyed build (each with its own hash seed) write the same bytes")
    func keyedBuildsAreReproducibleAcrossSeeds() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let folder = Corpus.packageRoot.appendingPathComponent("Seeds/EMPlan")
        var digests: Set<String> = []
        for run in 0..<3 {
            let build = try SeedgenTool.run(["build", "--model", folder.appendingPathComponent("EMPlan.xcdatamodeld").path, "--output",
                                             directory.path("\(run).sqlite"), "--json", folder.appendingPathComponent("setup.plist").path])
            #expect(build.status == 0, "\(build.error)")
            struct Summary: Decodable { var sha256: String }
            digests.insert(try JSONDecoder().decode(Summary.self, from: Data(build.output.utf8)).sha256)
        }
        #expect(digests.count == 1)
    }

    @Test("build writes a store that verifies clean and inspects with its metadata", corpusTrait)
    func buildVerifyInspect() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let model = Corpus.stores[0].model.path
        let output = directory.path("out.sqlite")
        let build = try SeedgenTool.run(["build", "--model", model, "--output", output, "--json"])
        #expect(build.status == 0, "\(build.error)")
        struct Summary: Decodable { var sha256: String; var rows: [String: Int] }
        let summary = try JSONDecoder().decode(Summary.self, from: Data(build.output.utf8))
        #expect(summary.rows == ["Asset": 0, "Author": 0, "Category": 0, "Post": 0, "SyncInfo": 0])

        let again = try SeedgenTool.run(["build", "--model", model, "--output", directory.path("again.sqlite"), "--json"])
        #expect(try JSONDecoder().decode(Summary.self, from: Data(again.output.utf8)).sha256 == summary.sha256)

        #expect(try SeedgenTool.run(["verify", output, "--model", model]).status == 0)
        let inspect = try SeedgenTool.run(["inspect", output, "--json"])
        #expect(inspect.status == 0)
        let report = try #require(try JSONSerialization.jsonObject(with: Data(inspect.output.utf8)) as? [String: Any])
        #expect(report["frameworkVersion"] as? Int == 1327)
        #expect((report["versionHashes"] as? [String: String])?["Asset"] == "vpD7YUlwqHvePA8ShetYaIpJRDF+1LabaCdY+9kUa44=")
        #expect((report["pragmas"] as? [String: String])?["auto_vacuum"] == "2")
        #expect((report["entities"] as? [[String: Any]])?.count == 5)
        let text = try SeedgenTool.run(["inspect", output])
        #expect(text.output.contains("generator: seedgen"))
        // What seedgen's own tables take of the store (a seed's: its model), in bytes and as a share.
        let space = try #require(report["space"] as? [String: Any])
        let record = try #require(space["seedRecord"] as? Int), total = try #require(space["total"] as? Int)
        #expect(record > 0 && total > record)
        #expect(text.output.contains("space: \(total) bytes in tables and indexes; seedgen's own (model, record) \(record) bytes ("), "\(text.output)")
    }

    @Test("inspect shows every metadata key, an app's own included (moody's CloudKit user ID)", .enabled(if: Corpus.isAvailable))
    func inspectShowsEveryMetadataKey() throws {
        let moody = try #require(Corpus.allStores.first { $0.name == "moody" })
        let text = try SeedgenTool.run(["inspect", moody.store.path])
        for line in ["  io.objc.Moody.CloudKitUserID: _62a0ed0ad3b375fc9ec7fdf66dfd9c63", "  NSStoreType: SQLite", "  NSStoreModelVersionHashes: a dictionary of 4"] {
            #expect(text.output.contains(line + "\n"), "\(line) in:\n\(text.output)")
        }
        let json = try SeedgenTool.run(["inspect", moody.store.path, "--json"])
        let report = try #require(try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any])
        #expect((report["metadata"] as? [String: String])?["io.objc.Moody.CloudKitUserID"] == "_62a0ed0ad3b375fc9ec7fdf66dfd9c63")
    }

    @Test("a bad model: exit 1, the file and line named, and an older output left as it was")
    func badModelKeepsOutput() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let output = try directory.write("older store", to: "out.sqlite")
        try directory.write("""
            <?xml version="1.0"?>
            <model>
                <entity name="A"><attribute name="x" attributeType="Text"/></entity>
            </model>
            """, to: "Bad.xcdatamodel/contents")
        let result = try SeedgenTool.run(["build", "--model", directory.path("Bad.xcdatamodel"), "--output", output])
        #expect(result.status == 1)
        #expect(result.error.contains("Bad.xcdatamodel/contents:3: attribute 'x' has unknown attribute type 'Text'"), "\(result.error)")
        #expect(try String(contentsOfFile: output, encoding: .utf8) == "older store")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path).sorted() == ["Bad.xcdatamodel", "out.sqlite"])
    }

    @Test("a model whose layout is unknown is refused before anything is written")
    func unsupportedLayout() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let model = try directory.write("""
            <?xml version="1.0"?>
            <model>
                <entity name="A"><relationship name="bs" optional="YES" toMany="YES" ordered="YES" destinationEntity="B"/></entity>
                <entity name="B"/>
            </model>
            """, to: "contents")
        let result = try SeedgenTool.run(["build", "--model", model, "--output", directory.path("out.sqlite")])
        #expect(result.status == 1 && result.error.contains("contents:3: to-many relationship 'A.bs' has no inverse and is ordered"), "\(result.error)")
        #expect(!FileManager.default.fileExists(atPath: directory.path("out.sqlite")))
    }

    @Test("--help and --version succeed")
    func help() throws {
        let help = try SeedgenTool.run(["--help"])
        #expect(help.status == 0 && help.output.contains("verify"))
        #expect(try SeedgenTool.run(["--version"]).output == "0.1.0\n")
    }

    @Test("build --framework-version writes that era's layout and records it; an unknown era is a usage error", corpusTrait)
    func frameworkVersion() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let moody = try #require(Corpus.freshStores.first { $0.name == "moody" })
        let output = directory.path("moody.sqlite")
        let result = try SeedgenTool.run(["build", "--model", moody.model.path, "--output", output, "--framework-version", "637", "--quiet"])
        #expect(result.status == 0, "\(result)")
        let query = "SELECT type, name, sql FROM sqlite_master WHERE name NOT IN ('Z_MODELCACHE', 'SEEDGEN_SEEDED', 'SEEDGEN_MODEL', 'SEEDGEN_LINKED') AND sql IS NOT NULL ORDER BY type, name"
        let copy = try directory.copy(moody.store, as: "real.sqlite")
        #expect(try SQLiteShell.rows(output, query) == SQLiteShell.rows(copy, query))
        let inspect = try SeedgenTool.run(["inspect", output])
        #expect(inspect.output.contains("framework version: 637"), "\(inspect.output)")
        let newest = try SeedgenTool.run(["build", "--model", moody.model.path, "--output", directory.path("new.sqlite"), "--quiet"])
        #expect(newest.status == 0)
        #expect(try SQLiteShell.rows(directory.path("new.sqlite"), query) != SQLiteShell.rows(copy, query))
        let old = try SeedgenTool.run(["build", "--model", moody.model.path, "--output", directory.path("x.sqlite"), "--framework-version", "100"])
        #expect(old.status == 2 && old.error.contains("the oldest framework whose layout is known is 419"), "\(old)")
    }
}

extension CommandLineTests {
    @Test("--key names objects of a model without constraints; a bad --key or --section is a usage error (exit 2) that names it")
    func buildTimeKeyOptions() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try directory.write("""
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
            <entity name="Cocktail"><attribute name="name" attributeType="String"/>
            <relationship name="glass" optional="YES" maxCount="1" destinationEntity="Glass" inverseName="cocktails" inverseEntity="Glass"/></entity>
            <entity name="Glass"><attribute name="name" attributeType="String"/>
            <relationship name="cocktails" optional="YES" toMany="YES" destinationEntity="Cocktail" inverseName="glass" inverseEntity="Cocktail"/></entity>
            </model>
            """, to: "Bar.xcdatamodel/contents")
        let input = try directory.write("<Bar>\n<Cocktail name=\"Mojito\" glass=\"Highball\"/>\n<Glass name=\"Highball\"/>\n</Bar>\n", to: "bar.xml")
        let model = directory.path("Bar.xcdatamodel")
        let output = directory.path("out.sqlite")
        let without = try SeedgenTool.run(["build", "--model", model, "--output", output, input])
        #expect(without.status == 1 && without.error.contains("bar.xml:2:") && without.error.contains("--key Glass=attribute"), "\(without)")
        #expect(try SeedgenTool.run(["build", "--model", model, "--output", output, "--quiet", "--key", "Glass=name", input]).status == 0)
        #expect(try SQLiteShell.rows(output, "SELECT c.ZNAME, g.ZNAME FROM ZCOCKTAIL c JOIN ZGLASS g ON g.Z_PK = c.ZGLASS") == ["Mojito|Highball"])
        #expect(try SeedgenTool.run(["verify", output, "--model", model]).status == 0)
        for (arguments, words) in [(["--key", "Glass=colour"], "Glass has no stored attribute 'colour'"),
                                   (["--key", "Glass"], "seedgen: error: The value 'Glass' is invalid for '--key <spec>'"),
                                   (["--key", "Glass=name", "--key", "Glass=colour"], "seedgen: error: --key Glass is given twice; once per entity"),
                                   (["--section", "Crew"], "Section=Entity"),
                                   (["--date-format-for", "Glass.made=EEE"], "seedgen: error: --date-format-for Glass.made: unsupported date pattern field 'EEE'"),
                                   (["--time-zone", "+25:00"], "The value '+25:00' is invalid for '--time-zone <zone>'"),
                                   (["--key", "Bottle=name"], "no entity 'Bottle'"),
                                   (["--section", "Crew=Nobody"], "no entity 'Nobody'")] {
            let result = try SeedgenTool.run(["build", "--model", model, "--output", directory.path("bad.sqlite")] + arguments + [input])
            #expect(result.status == 2 && result.error.contains(words), "\(arguments): \(result)")
        }
        #expect(!FileManager.default.fileExists(atPath: directory.path("bad.sqlite")))
    }
}

extension CommandLineTests {
    /// The text of the documented code block that starts with `<!-- name` (in the source
    /// formats' DocC article, where the README points for them).
    static func documentedBlock(_ name: String) throws -> String {
        let readme = try String(contentsOf: Corpus.packageRoot.appendingPathComponent("Sources/SeedImport/SeedImport.docc/SourceFormats.md"), encoding: .utf8)
        let start = try #require(readme.range(of: "```xml\n<!-- \(name)"))
        let end = try #require(readme.range(of: "\n```", range: start.upperBound..<readme.endIndex))
        return String(readme[readme.index(start.lowerBound, offsetBy: 7)..<end.lowerBound])
    }

    @Test("the README's worked example builds as it says: one shared glass, three ordered steps, the ingredients' join rows")
    func readmeWorkedExample() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try directory.write(BarModel.contents, to: "Bar.xcdatamodel/contents")
        let cocktails = try directory.write(try Self.documentedBlock("cocktails.xml"), to: "cocktails.xml")
        let pantry = try directory.write(try Self.documentedBlock("pantry.plist"), to: "pantry.plist")
        let output = directory.path("Bar.sqlite")
        let build = try SeedgenTool.run(["build", "--model", directory.path("Bar.xcdatamodel"), "--output", output, "--quiet",
                                         "--key", "Glass=name", "--key", "Cocktail=name", cocktails, pantry])
        #expect(build.status == 0, "\(build)")
        #expect(try SQLiteShell.rows(output, "SELECT COUNT(*) FROM ZGLASS") == ["1"])
        #expect(try SQLiteShell.rows(output, "SELECT ZTEXT, Z_FOK_COCKTAIL FROM ZSTEP ORDER BY Z_FOK_COCKTAIL")
                == ["Muddle the mint|2048", "Add rum and ice|3072", "Top with soda|4096"])
        #expect(try SQLiteShell.rows(output, """
            SELECT c.ZNAME, i.ZNAME FROM Z_1INGREDIENTS j JOIN ZCOCKTAIL c ON c.Z_PK = j.Z_1COCKTAILS JOIN ZINGREDIENT i ON i.Z_PK = j.Z_3INGREDIENTS ORDER BY 1, 2
            """) == ["Cuba Libre|Lime", "Cuba Libre|White rum", "Mojito|Lime", "Mojito|Mint", "Mojito|White rum"])
        #expect(try SeedgenTool.run(["verify", output, "--model", directory.path("Bar.xcdatamodel")]).status == 0)
    }

    @Test("every command's help shows defaults in the words a user types (was: build's --time-zone default TimeZoneOffset(seconds: 0))")
    func helpShowsNoInternalValue() throws {
        for command in ["build", "verify", "fetch", "inspect", "dump", "hash", "migrate", "diff", "update"] {
            let help = try SeedgenTool.run([command, "--help"])
            #expect(help.status == 0 && !help.output.contains("(seconds:") && !help.output.contains("Optional("), "\(command): \(help.output)")
        }
        #expect(try SeedgenTool.run(["build", "--help"]).output.contains("(default: UTC)"))
    }
}
