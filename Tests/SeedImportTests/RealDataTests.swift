import Foundation
import SeedImport
import SeedModel
import SeedStore
import SeedgenTestSupport
import Testing

/// What real apps' data needs: merges that compare typed values, ordered relationships across
/// elements and files, section names, objects named without a model constraint.
@Suite("Real data")
struct RealDataTests {
    @Test("a date of whole seconds given twice merges (it failed: 559308941 and 559308941.0 were 'two different values')")
    func wholeSecondDateMerges() throws {
        let run = try ImportRun()
        defer { run.directory.remove() }
        try run.build([("a.xml", """
            <Cup>
                <Group name="A"><Team name="X" founded="2018-09-21T11:35:41Z"/></Group>
                <Team name="X" founded="2018-09-21T11:35:41Z"/>
                <Team name="X" founded="2018-09-21T11:35:41.000Z"/>
            </Cup>
            """)])
        #expect(try run.rows("SELECT ZNAME, ZFOUNDED FROM ZTEAM") == ["X|559222541"])
        // A different value is still a conflict.
        let other = try ImportRun()
        defer { other.directory.remove() }
        let error = try #require(throws: InputError.self) {
            try other.build([("a.xml", "<Cup>\n<Group name=\"A\"><Team name=\"X\" founded=\"2018-09-21T11:35:41Z\"/></Group>\n<Team name=\"X\" founded=\"2018-09-21T11:35:41.5Z\"/>\n</Cup>")])
        }
        #expect(error.message.contains("'founded' is given two different values, 2018-09-21T11:35:41Z and 2018-09-21T11:35:41.500Z"), "dates as ISO 8601, not seconds: \(error)")
    }
}

extension RealDataTests {
    @Test("a build-time key names shared objects across files without a model constraint; the store's layout and hashes stay the model's")
    func buildTimeKey() throws {
        let run = try ImportRun(model: BarModel.contents)
        defer { run.directory.remove() }
        let options = ImportOptions(keys: ["Glass": ["name"], "Cocktail": ["name"]])
        try run.build([
            ("cocktails.xml", "<Bar>\n<Cocktail name=\"Mojito\" glass=\"Highball\"/>\n<Cocktail name=\"Cuba Libre\" glass=\"Highball\"/>\n</Bar>"),
            ("glasses.xml", "<Bar>\n<Glass name=\"Highball\" size=\"12\"/>\n<Glass name=\"Highball\"/>\n</Bar>"),
        ], options: options)
        #expect(try run.rows("SELECT c.ZNAME, g.ZNAME, g.ZSIZE FROM ZCOCKTAIL c JOIN ZGLASS g ON g.Z_PK = c.ZGLASS ORDER BY c.ZNAME")
                == ["Cuba Libre|Highball|12", "Mojito|Highball|12"])
        #expect(try run.rows("SELECT COUNT(*) FROM ZGLASS") == ["1"])
        #expect(try run.verify().isEmpty)
        // The same data without the key (nested) gives the same layout and metadata hashes.
        let plain = try ImportRun(model: BarModel.contents)
        defer { plain.directory.remove() }
        try plain.build([("a.xml", "<Bar><Glass name=\"Highball\" size=\"12\"/></Bar>")])
        #expect(try SQLiteShell.rows(plain.output, "SELECT sql FROM sqlite_master ORDER BY name") == run.rows("SELECT sql FROM sqlite_master ORDER BY name"))
        #expect(try SQLiteShell.rows(plain.output, "SELECT Z_ENT, Z_NAME FROM Z_PRIMARYKEY ORDER BY 1")
                == run.rows("SELECT Z_ENT, Z_NAME FROM Z_PRIMARYKEY ORDER BY 1"))
        let hashes = try StoreMetadata(decoding: SQLiteShell.metadataPlist(of: run.output)).versionHashes
        #expect(hashes == (try StoreMetadata(decoding: SQLiteShell.metadataPlist(of: plain.output)).versionHashes))
        #expect(hashes == VersionHasher(model: run.layout.model).entityHashes())
    }

    @Test("a compound key (model or build-time) is named by its values separated by '|', '\\\\|' for a '|' in a value")
    func compoundKeyReferences() throws {
        let run = try ImportRun(model: BarModel.contents)
        defer { run.directory.remove() }
        let options = ImportOptions(keys: ["Glass": ["name", "size"]])
        try run.build([("bar.xml", """
            <Bar>
            <Cocktail name="Mojito" glass="Highball|12"/>
            <Cocktail name="Pipe" glass="A\\|B|3"/>
            <Glass name="Highball" size="12"/>
            <Glass name="Highball" size="8"/>
            <Glass name="A|B" size="3"/>
            </Bar>
            """)], options: options)
        #expect(try run.rows("SELECT c.ZNAME, g.ZNAME, g.ZSIZE FROM ZCOCKTAIL c JOIN ZGLASS g ON g.Z_PK = c.ZGLASS ORDER BY c.ZNAME")
                == ["Mojito|Highball|12", "Pipe|A|B|3"])
        // A reference with the wrong number of values, and one to no object, name the place and the key.
        for (text, words) in [("Highball", ["'Highball' is not a key of Glass, which is name|size"]),
                              ("Highball|9", ["bar.xml:2:", "no Glass has the key 'Highball|9'"])] {
            let bad = try ImportRun(model: BarModel.contents)
            defer { bad.directory.remove() }
            let error = try #require(throws: InputError.self) {
                try bad.build([("bar.xml", "<Bar>\n<Cocktail name=\"M\" glass=\"\(text)\"/>\n<Glass name=\"Highball\" size=\"12\"/>\n</Bar>")], options: options)
            }
            for word in words { #expect("\(error)".contains(word), "\(error)") }
        }
    }

    @Test("source-local identifiers name keyless objects from any file (entity XML and plists), link re-nested objects, and are stored only as the seed record's names")
    func sourceLocalIdentifiers() throws {
        let run = try ImportRun(model: BarModel.contents)
        defer { run.directory.remove() }
        try run.build([
            ("cocktails.xml", """
                <Bar xmlns:seedgen="urn:seedgen:source">
                <Cocktail name="Mojito" seedgen:glass="highball" seedgen:ingredients="rum mint">
                    <steps><Step text="Muddle"/><Step text="Stir"/></steps>
                </Cocktail>
                <Cocktail name="Daiquiri" seedgen:id="daiquiri" seedgen:ingredients="rum"/>
                </Bar>
                """),
            ("glasses.plist", """
                <?xml version="1.0" encoding="UTF-8"?>
                <plist version="1.0"><dict>
                <key>Glasses</key><array><dict><key>@id</key><string>highball</string><key>name</key><string>Highball</string>
                    <key>@cocktails</key><array><string>daiquiri</string></array></dict></array>
                <key>Ingredients</key><array>
                    <dict><key>@id</key><string>rum</string><key>name</key><string>Rum</string></dict>
                    <dict><key>@id</key><string>mint</string><key>name</key><string>Mint</string></dict>
                </array>
                </dict></plist>
                """),
            ("more.xml", """
                <Bar xmlns:seedgen="urn:seedgen:source">
                <Cocktail seedgen:id="daiquiri"><steps><Step text="Shake"/></steps></Cocktail>
                </Bar>
                """),
        ])
        #expect(try run.rows("SELECT c.ZNAME, g.ZNAME FROM ZCOCKTAIL c JOIN ZGLASS g ON g.Z_PK = c.ZGLASS ORDER BY c.ZNAME")
                == ["Daiquiri|Highball", "Mojito|Highball"])
        #expect(try run.rows("SELECT COUNT(*) FROM ZCOCKTAIL") == ["2"])
        #expect(try run.rows("SELECT ZNAME FROM ZINGREDIENT ORDER BY ZNAME") == ["Mint", "Rum"])
        #expect(try run.rows("""
            SELECT c.ZNAME, i.ZNAME FROM Z_1INGREDIENTS j JOIN ZCOCKTAIL c ON c.Z_PK = j.Z_1COCKTAILS JOIN ZINGREDIENT i ON i.Z_PK = j.Z_3INGREDIENTS ORDER BY 1, 2
            """) == ["Daiquiri|Rum", "Mojito|Mint", "Mojito|Rum"])
        #expect(try run.verify().isEmpty)
        // The identifiers are in the seed only in its table of identifiers, as the names the record
        // of an installed copy gives their objects.
        #expect(try run.rows("SELECT COUNT(*) FROM sqlite_master WHERE sql LIKE '%seedgen%' AND tbl_name NOT IN ('SEEDGEN_IDENTIFIED', 'SEEDGEN_MODEL')") == ["0"])
        #expect(try run.rows("SELECT i.ZNAME FROM SEEDGEN_IDENTIFIED r JOIN ZINGREDIENT i ON i.Z_PK = r.PK AND i.Z_ENT = r.ENTITY WHERE r.KEY = 'i t' || hex('rum')") == ["Rum"])
        #expect(try run.rows("SELECT KEY FROM SEEDGEN_IDENTIFIED ORDER BY KEY")
                == ["daiquiri", "highball", "mint", "rum"].map { "i t" + $0.utf8.map { String(format: "%02X", $0) }.joined() }.sorted())
    }

    @Test("identifiers: one that names no object, one given to two entities, a namespace that is not seedgen's: errors with the place")
    func identifierErrors() throws {
        let cases: [(String, String, [String])] = [
            ("dangling", "<Bar xmlns:seedgen=\"urn:seedgen:source\">\n<Cocktail name=\"M\" seedgen:glass=\"nope\"/>\n</Bar>", ["a.xml:2:", "no object has the identifier 'nope'"]),
            ("two entities", "<Bar xmlns:seedgen=\"urn:seedgen:source\">\n<Glass name=\"G\" seedgen:id=\"x\"/>\n<Cocktail name=\"M\" seedgen:id=\"x\"/>\n</Bar>", ["a.xml:3:", "identifier 'x' names a Glass", "not a Cocktail"]),
            ("other namespace", "<Bar xmlns:s=\"urn:other\">\n<Glass name=\"G\" s:id=\"x\"/>\n</Bar>", ["a.xml:2:", "namespace 'urn:other'"]),
            ("undeclared prefix", "<Bar>\n<Glass name=\"G\" seedgen:id=\"x\"/>\n</Bar>", ["a.xml:2:", "seedgen"]),
            ("to-one with two", "<Bar xmlns:seedgen=\"urn:seedgen:source\">\n<Cocktail name=\"M\" seedgen:glass=\"a b\"/>\n</Bar>", ["a.xml:2:", "takes one identifier"]),
        ]
        for (name, text, words) in cases {
            let run = try ImportRun(model: BarModel.contents)
            defer { run.directory.remove() }
            let error = try #require(throws: InputError.self, "\(name)") { try run.build([("a.xml", text)]) }
            for word in words { #expect("\(error)".contains(word), "\(name): \(error)") }
        }
    }

    @Test("an ordered to-many keeps one position sequence per owner across elements and files (positions restarted per element)")
    func orderedAcrossElementsAndFiles() throws {
        let run = try ImportRun(model: BarModel.contents)
        defer { run.directory.remove() }
        let options = ImportOptions(keys: ["Cocktail": ["name"]])
        try run.build([
            ("a.xml", "<Bar>\n<Cocktail name=\"M\"><steps><Step text=\"a1\"/><Step text=\"a2\"/></steps></Cocktail>\n<Cocktail name=\"M\"><steps><Step text=\"a3\"/></steps></Cocktail>\n</Bar>"),
            ("b.xml", "<Bar>\n<Cocktail name=\"M\"><steps><Step text=\"a4\"/><Step text=\"a5\"/></steps></Cocktail>\n</Bar>"),
        ], options: options)
        #expect(try run.rows("SELECT ZTEXT, Z_FOK_COCKTAIL FROM ZSTEP ORDER BY Z_FOK_COCKTAIL")
                == ["a1|2048", "a2|3072", "a3|4096", "a4|5120", "a5|6144"])
        #expect(try run.verify().isEmpty)
    }

    @Test("section names: the entity's English plural (People, Glasses), its own name, or --section; an unknown one says how to map it")
    func sectionNames() throws {
        #expect(["Person", "Glass", "Category", "Box", "Leaf", "Analysis", "Sheep", "LineItem", "Day"].map { SectionNames.plural(of: $0) }
                == ["People", "Glasses", "Categories", "Boxes", "Leaves", "Analyses", "Sheep", "LineItems", "Days"])
        let run = try ImportRun(model: BarModel.contents)
        defer { run.directory.remove() }
        try run.build([("bar.plist", """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict>
            <key>People</key><array><dict><key>name</key><string>Constante</string></dict></array>
            <key>Staff</key><array><dict><key>name</key><string>Bartender</string></dict></array>
            <key>Glasses</key><array><dict><key>name</key><string>Coupe</string></dict></array>
            </dict></plist>
            """)], options: ImportOptions(sectionNames: ["Staff": "Person"]))
        #expect(try run.rows("SELECT ZNAME FROM ZPERSON ORDER BY ZNAME") == ["Bartender", "Constante"])
        let bad = try ImportRun(model: BarModel.contents)
        defer { bad.directory.remove() }
        let error = try #require(throws: InputError.self) {
            try bad.build([("bar.plist", "<?xml version=\"1.0\"?>\n<plist version=\"1.0\"><dict>\n<key>Crew</key><array/>\n</dict></plist>")])
        }
        #expect("\(error)".contains("bar.plist:3:") && "\(error)".contains("--section Crew=Entity"), "\(error)")
    }
}

extension RealDataTests {
    @Test("an ordered list that names objects defined before and after it keeps its order (later ones reserve their place)")
    func orderedListWithForwardReferences() throws {
        let run = try ImportRun(model: BarModel.contents)
        defer { run.directory.remove() }
        try run.build([
            ("a.xml", """
                <Bar xmlns:seedgen="urn:seedgen:source">
                <Step seedgen:id="s1" text="one"/>
                <Cocktail name="M" seedgen:steps="s2 s1 s3"/>
                <Step seedgen:id="s2" text="two"/>
                </Bar>
                """),
            ("b.plist", """
                <?xml version="1.0" encoding="UTF-8"?>
                <plist version="1.0"><dict><key>Steps</key><array><dict><key>@id</key><string>s3</string><key>text</key><string>three</string></dict></array></dict></plist>
                """),
        ])
        #expect(try run.rows("SELECT ZTEXT FROM ZSTEP ORDER BY Z_FOK_COCKTAIL") == ["two", "one", "three"])
        #expect(try run.rows("SELECT Z_FOK_COCKTAIL FROM ZSTEP ORDER BY Z_FOK_COCKTAIL") == ["2048", "3072", "4096"])
        #expect(try run.verify().isEmpty)
    }
}
