import Foundation
import SeedgenTestSupport
import Testing

/// Seeds built from SwiftData sources through the command line (seedgen runs seedgen-swiftdata).
@Suite("SwiftData seeds")
struct SwiftDataSeedTests {
    static let recipes = Corpus.packageRoot.appendingPathComponent("Seeds/Recipes")

    @Test("Seeds/Recipes builds from its @Model sources, verifies as built, and the same sources build the same bytes")
    func recipesSeed() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let model = Self.recipes.appendingPathComponent("Model").path
        let data = Self.recipes.appendingPathComponent("recipes.json").path
        for name in ["a.sqlite", "b.sqlite"] {
            let build = try SeedgenTool.run(["build", "--model", model, "--output", directory.path(name), data])
            #expect(build.status == 0, "\(build.error)")
        }
        let verify = try SeedgenTool.run(["verify", "--as-built", directory.path("a.sqlite"), "--model", model])
        #expect(verify.status == 0, "\(verify.output)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: directory.path("a.sqlite"))) == Data(contentsOf: URL(fileURLWithPath: directory.path("b.sqlite"))))
        let store = directory.path("a.sqlite")
        #expect(try SQLiteShell.rows(store, "SELECT r.ZTITLE, c.ZNAME, r.ZVEGETARIAN, r.ZDIFFICULTY FROM ZRECIPE r LEFT JOIN ZCUISINE c ON c.Z_PK = r.ZCUISINE ORDER BY r.ZTITLE")
            == ["Miso soup|Japanese|1|easy", "Spaghetti aglio e olio|Italian|1|easy", "Tacos al pastor|Mexican|0|challenging", "Toast||1|easy"])
        #expect(try SQLiteShell.rows(store, "SELECT ZTITLE, ZPREPARE, ZCOOK, CAST(ZSTEPS AS TEXT) FROM ZRECIPE WHERE ZPREPARE IS NOT NULL ORDER BY ZTITLE")
            == [#"Spaghetti aglio e olio|5|15|["Boil the pasta","Fry the garlic","Toss"]"#, "Tacos al pastor|60|30|"])
        #expect(try SQLiteShell.rows(store, "SELECT count(*), count(ZGRAMS) FROM ZINGREDIENT WHERE ZRECIPE IS NOT NULL") == ["10|8"])
        #expect(try SQLiteShell.rows(store, "SELECT name FROM sqlite_master WHERE name LIKE 'Z_Recipe_%' ORDER BY name")
            == ["Z_Recipe_SwiftDataIndexOnBinarytitle", "Z_Recipe_UNIQUE_title"])
        let hash = try SeedgenTool.run(["hash", "--model", model, "--schema", "Recipe"])
        #expect(hash.status == 0 && hash.output.split(separator: "\n").count == 3, "Recipe reaches Ingredient and Cuisine")
    }

    @Test("the sources' mistakes come back through seedgen with their place; nothing is written")
    func refusalsThroughSeedgen() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let model = try directory.write("@Model class A {\n    var when: (Int, Int)\n}\n", to: "Model.swift")
        let build = try SeedgenTool.run(["build", "--model", model, "--output", directory.path("out.sqlite")])
        #expect(build.status == 1)
        #expect(build.error.contains("Model.swift:2:15: '(Int, Int)': SwiftData stores no such type"), "\(build.error)")
        #expect(!FileManager.default.fileExists(atPath: directory.path("out.sqlite")))
        let schema = try SeedgenTool.run(["hash", "--model", model, "--schema", "B"])
        #expect(schema.status == 1 && schema.error.contains("no @Model class named 'B'"), "\(schema.error)")
        let coreData = try SeedgenTool.run(["hash", "--model", directory.path("nothing.xcdatamodel"), "--schema", "A"])
        #expect(coreData.status == 2)
    }

    @Test("Composite values by their paths (address.street; a raw-value enum by the property's name): built, dumped, built again byte for byte")
    func compositeRoundTrip() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let model = try directory.write(Self.model, to: "Model.swift")
        let data = try directory.write("""
            {"Visits": [
             {"name": "a", "mood": "calm", "level": 2, "weather.sun": "sun", "address.street": "Main", "address.number": 5,
              "address.id": "6F9619FF-8B86-D011-B42D-00C04FC964FF", "id": "7C1EA5A6-0D9B-4B74-A530-13251F4943D8"},
             {"name": "b", "mood": "loud"}
            ]}
            """, to: "visits.json")
        let first = try SeedgenTool.run(["build", "--model", model, "--output", directory.path("a.sqlite"), data])
        #expect(first.status == 0, "\(first.error)")
        #expect(try SQLiteShell.rows(directory.path("a.sqlite"), "SELECT ZNAME, ZMOOD, ZLEVEL, ZSUN, ZRAIN, ZSTREET, ZNUMBER, hex(ZID), hex(ZID1) FROM ZVISIT ORDER BY Z_PK") == [
            "a|calm|2|sun||Main|5|6F9619FF8B86D011B42D00C04FC964FF|7C1EA5A60D9B4B74A53013251F4943D8", "b|LOUD|||||||",
        ])
        let dump = try SeedgenTool.run(["dump", directory.path("a.sqlite"), "--model", model, "-o", directory.path("dump.xml")])
        #expect(dump.status == 0, "\(dump.error)")
        #expect(try String(contentsOfFile: directory.path("dump.xml"), encoding: .utf8).contains("address.street=\"Main\""))
        let again = try SeedgenTool.run(["build", "--model", model, "--output", directory.path("b.sqlite"), directory.path("dump.xml")])
        #expect(again.status == 0, "\(again.error)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: directory.path("a.sqlite"))) == Data(contentsOf: URL(fileURLWithPath: directory.path("b.sqlite"))))
        let verify = try SeedgenTool.run(["verify", "--as-built", directory.path("b.sqlite"), "--model", model])
        #expect(verify.status == 0, "\(verify.output)")
    }

    /// A model of every Composite kind, an array inside a struct, a `[String]`, initial values, and
    /// two `id`s whose columns clash (`ZID` for `address.id`, `ZID1` for `id`).
    static let model = """
        enum Mood: String, Codable { case calm, loud = "LOUD" }
        enum Level: Int, Codable { case low = 1, high }
        enum Weather: Codable { case sun, rain }
        struct Address: Codable { var street: String; var number: Int?; var id: UUID?; var tags: [String]? }
        @Model class Visit {
            @Attribute(.unique) var name: String
            var mood: Mood
            var level: Level?
            var weather: Weather?
            var address: Address?
            var labels: [String] = []
            var fallback: Mood = .loud
            var id: UUID?
        }
        """

    static let naturalRows = "SELECT ZNAME, ZMOOD, ZLEVEL, ZSUN, ZRAIN, ZSTREET, ZNUMBER, CAST(ZTAGS AS TEXT) FROM ZVISIT ORDER BY ZNAME"

    @Test("Composite values given naturally in JSON, a property list, XML and CSV: a struct as one object, an enum by raw value or case name; a dump of them builds back byte for byte")
    func naturalComposites() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let model = try directory.write(Self.model, to: "Model.swift")
        let json = try directory.write("""
            {"Visits": [
             {"name": "a", "mood": "calm", "level": "high", "weather": "rain", "address": {"street": "Main", "number": 5, "tags": ["x", "y \\"z\\""]},
              "labels": ["new", "caf\\u00e9", "new"]},
             {"name": "b", "mood": "LOUD", "level": 1, "address": {"street": "Side", "tags": [true, {"d": null}, 1e3, []]}},
             {"name": "c", "mood": "loud"}
            ]}
            """, to: "visits.json")
        let plist = try directory.write("""
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict><key>Visits</key><array>
              <dict><key>name</key><string>d</string><key>mood</key><string>calm</string><key>weather</key><string>sun</string>
                <key>address</key><dict><key>street</key><string>Plist</string><key>tags</key><array><string>p</string></array></dict></dict>
            </array></dict></plist>
            """, to: "more.plist")
        let xml = try directory.write("""
            <Visits><Visit name="e" mood="loud" level="low" weather="sun" address.street="Xml" address.tags='["q"]' labels='["x"]'/></Visits>
            """, to: "more.xml")
        let csv = try directory.write("name,mood,weather,address.street\nf,calm,rain,Csv\n", to: "Visits.csv")
        let build = try SeedgenTool.run(["build", "--model", model, "--output", directory.path("a.sqlite"), json, plist, xml, csv])
        #expect(build.status == 0, "\(build.error)")
        #expect(try SQLiteShell.rows(directory.path("a.sqlite"), Self.naturalRows) == [
            #"a|calm|2||rain|Main|5|["x","y \"z\""]"#, #"b|LOUD|1|||Side||[true,{"d":null},1e3,[]]"#, "c|LOUD||||||",
            #"d|calm||sun||Plist||["p"]"#, #"e|LOUD|1|sun||Xml||["q"]"#, "f|calm|||rain|Csv||",
        ])
        // A [String] is NSSecureUnarchiveFromData's archive, which Foundation reads back.
        let labels = try SQLiteShell.rows(directory.path("a.sqlite"), "SELECT hex(ZLABELS) FROM ZVISIT WHERE ZNAME IN ('a', 'e') ORDER BY ZNAME").map { hex in
            let bytes = stride(from: 0, to: hex.count, by: 2).map { UInt8(hex.dropFirst($0).prefix(2), radix: 16)! }
            return try NSKeyedUnarchiver.unarchivedObject(ofClasses: [NSArray.self, NSString.self], from: Data(bytes)) as? [String]
        }
        #expect(labels == [["new", "café", "new"], ["x"]])
        // Initial values as the sources give them: `= []` and `= .loud`, where data gives none.
        #expect(try SQLiteShell.rows(directory.path("a.sqlite"), "SELECT DISTINCT ZFALLBACK FROM ZVISIT") == ["LOUD"])
        #expect(try SQLiteShell.rows(directory.path("a.sqlite"), "SELECT COUNT(*) FROM ZVISIT WHERE ZLABELS = (SELECT ZLABELS FROM ZVISIT WHERE ZNAME = 'c')") == ["4"])
        let dump = try SeedgenTool.run(["dump", directory.path("a.sqlite"), "--model", model, "-o", directory.path("dump.xml")])
        #expect(dump.status == 0, "\(dump.error)")
        let dumped = try String(contentsOfFile: directory.path("dump.xml"), encoding: .utf8)
        #expect(dumped.contains(#"address.tags="[&quot;p&quot;]""#), "an array inside a struct is dumped as its JSON text")
        #expect(dumped.contains(#"labels="[&quot;x&quot;]""#), "a [String] is dumped as a JSON array of its strings")
        let again = try SeedgenTool.run(["build", "--model", model, "--output", directory.path("b.sqlite"), directory.path("dump.xml")])
        #expect(again.status == 0, "\(again.error)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: directory.path("a.sqlite"))) == Data(contentsOf: URL(fileURLWithPath: directory.path("b.sqlite"))))
    }

    @Test("an optional struct's required member may come from a later mention of the same object; a struct left out is nil")
    func compositeCompletedLater() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let model = try directory.write(Self.model, to: "Model.swift")
        let data = try directory.write("""
            {"Visits": [{"name": "a", "mood": "calm", "address": {"number": 5}}, {"name": "b", "mood": "calm"}, {"name": "a", "address.street": "Main"}]}
            """, to: "visits.json")
        let build = try SeedgenTool.run(["build", "--model", model, "--output", directory.path("a.sqlite"), data])
        #expect(build.status == 0, "\(build.error)")
        #expect(try SQLiteShell.rows(directory.path("a.sqlite"), "SELECT ZNAME, ZSTREET, ZNUMBER FROM ZVISIT ORDER BY ZNAME") == ["a|Main|5", "b||"])
    }

    @Test("fetch shows a [String] and an array inside a struct as their JSON text, as dump writes them (it showed the archive's base64)")
    func fetchShowsArraysAsText() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let model = try directory.write(Self.model, to: "Model.swift")
        let data = try directory.write("""
            {"Visits": [{"name": "a", "mood": "calm", "labels": ["new", "sale"], "address": {"street": "Main", "tags": ["x"]}}]}
            """, to: "visits.json")
        let build = try SeedgenTool.run(["build", "--model", model, "--output", directory.path("a.sqlite"), data])
        #expect(build.status == 0, "\(build.error)")
        let fetch = try SeedgenTool.run(["fetch", directory.path("a.sqlite"), "--model", model, "--entity", "Visit"])
        #expect(fetch.status == 0 && fetch.output.contains(#"labels="[\"new\",\"sale\"]""#) && fetch.output.contains(#"address.tags="[\"x\"]""#), "\(fetch.output)")
    }

    @Test("fetch filters and sorts on a struct's members by the paths it shows them by; the struct itself or an unknown member is refused naming the members")
    func fetchFiltersOnMembers() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let model = try directory.write(Self.model, to: "Model.swift")
        let data = try directory.write("""
            {"Visits": [{"name": "a", "mood": "calm", "address": {"street": "Main", "number": 5}},
                        {"name": "b", "mood": "LOUD", "address": {"street": "Side", "number": 7}},
                        {"name": "c", "mood": "calm", "address": {"street": "Main", "number": 9}},
                        {"name": "d", "mood": "calm"}]}
            """, to: "visits.json")
        let store = directory.path("a.sqlite")
        let build = try SeedgenTool.run(["build", "--model", model, "--output", store, data])
        #expect(build.status == 0, "\(build.error)")
        func names(_ arguments: [String]) throws -> [String] {
            let fetch = try SeedgenTool.run(["fetch", store, "--model", model, "--entity", "Visit", "--json"] + arguments)
            #expect(fetch.status == 0, "\(fetch.error)")
            let objects = try JSONSerialization.jsonObject(with: Data(fetch.output.utf8)) as? [[String: Any]] ?? []
            return objects.compactMap { ($0["values"] as? [String: Any])?["name"] as? String }
        }
        #expect(try names(["--predicate", "address.street == 'Main' AND address.number > 4", "--sort", "address.number:desc"]) == ["c", "a"])
        #expect(try names(["--predicate", "address.street == nil"]) == ["d"])
        #expect(try names(["--predicate", "mood == 'calm' AND address.number < 9"]) == ["a"])
        for (predicate, message) in [
            ("address == 'Main'", "Visit.address is a struct: compare one of its members (address.id, address.number, address.street, address.tags)"),
            ("address.strete == 'Main'", "Visit.address has no member 'strete' (its members: address.id, address.number, address.street, address.tags); did you mean 'address.street'?"),
        ] {
            let fetch = try SeedgenTool.run(["fetch", store, "--model", model, "--entity", "Visit", "--predicate", predicate])
            #expect(fetch.status != 0 && fetch.error.contains(message), "\(fetch.error) \(fetch.output)")
        }
    }

    @Test("a value that is no case, a struct given as one value, an unknown member and a missing required enum are refused at their place; nothing is written", arguments: [
        (#"{"name": "a", "mood": "angry"}"#, 1, 35, "Visit.mood: 'angry' is no case of the enum: give a raw value or a case name: calm ('calm'), loud ('LOUD')"),
        (#"{"name": "a", "mood": "calm", "weather": "snow"}"#, 1, 54, "Visit.weather: 'snow' is no case of the enum: rain, sun"),
        (#"{"name": "a", "mood": "calm", "weather": 3}"#, 1, 54, "Visit.weather is an enum: give a case's name as a string, not a number"),
        (#"{"name": "a", "mood": "calm", "level": 3}"#, 1, 52, "Visit.level: '3' is no case of the enum: give a raw value or a case name: low (1), high (2)"),
        (#"{"name": "a", "mood": "calm", "address": "Main"}"#, 1, 54, "Visit.address is a struct: give its values by path (address.id, address.number, address.street, address.tags), or in JSON or a property list as one object"),
        (#"{"name": "a", "mood": "calm", "address": {"zip": 1}}"#, 1, 62, "no attribute or relationship 'address.zip'"),
        (#"{"name": "a", "mood": "calm", "address": {"street": "S", "tags": "[1"}}"#, 1, 78, "Visit.address.tags: '[1' is not a JSON array"),
        (#"{"name": "a"}"#, 1, 13, "the required attribute 'mood' is missing"),
        (#"{"name": "a", "mood": "calm", "labels": ["x", 1]}"#, 1, 53, #"Visit.labels: '["x",1]' is not a JSON array of strings"#),
        (#"{"name": "a", "mood": "calm", "labels": ["$null"]}"#, 1, 53, #"Visit.labels: '["$null"]' holds the string '$null'"#),
        // An optional struct given in part: SwiftData could not decode a value without its street.
        (#"{"name": "a", "mood": "calm", "address": {"number": 5}}"#, 1, 13, "Visit.address gives number but not street, which every address must give"),
        (#"{"name": "a", "mood": "calm", "address.tags": ["t"]}"#, 1, 13, "Visit.address gives tags but not street, which every address must give"),
        (#"{"name": "a", "mood": "calm", "address": {"number": 5}}, {"name": "a", "address": {"id": "6F9619FF-8B86-D011-B42D-00C04FC964FF"}}"#, 1, 13,
         "Visit #1: Visit.address gives number but not street"),
        (#"{"name": "a", "mood": "calm", "address": {}}"#, 1, 54, "Visit.address is given with no member: give its members, or leave it out for nil"),
    ] as [(String, Int, Int, String)])
    func naturalCompositeRefusals(_ object: String, _ line: Int, _ column: Int, _ message: String) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let model = try directory.write(Self.model, to: "Model.swift")
        let data = try directory.write("{\"Visits\": [\(object)]}", to: "visits.json")
        let build = try SeedgenTool.run(["build", "--model", model, "--output", directory.path("out.sqlite"), data])
        #expect(build.status == 1 && build.error.contains("visits.json:\(line):\(column): ") && build.error.contains(message), "\(build.error)")
        #expect(!FileManager.default.fileExists(atPath: directory.path("out.sqlite")))
    }
}
