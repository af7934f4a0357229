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
            == ["Miso soup|Japanese|1|easy", "Spaghetti aglio e olio|Italian|1|easy", "Tacos al pastor|Mexican|0|hard", "Toast||1|easy"])
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
        let model = try directory.write("@Model class A {\n    var when: Set<Date>\n}\n", to: "Model.swift")
        let build = try SeedgenTool.run(["build", "--model", model, "--output", directory.path("out.sqlite")])
        #expect(build.status == 1)
        #expect(build.error.contains("Model.swift:2:15: 'Set<Date>': its stored form is not known"), "\(build.error)")
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
        let model = try directory.write("""
            enum Mood: String, Codable { case calm, loud }
            enum Level: Int, Codable { case low = 1, high }
            enum Weather: Codable { case sun, rain }
            struct Address: Codable { var street: String; var number: Int?; var id: UUID? }
            @Model class Visit {
                @Attribute(.unique) var name: String
                var mood: Mood
                var level: Level?
                var weather: Weather?
                var address: Address?
                var id: UUID?
            }
            """, to: "Model.swift")
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
            "a|calm|2|sun||Main|5|6F9619FF8B86D011B42D00C04FC964FF|7C1EA5A60D9B4B74A53013251F4943D8", "b|loud|||||||",
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
}
