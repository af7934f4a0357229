import Foundation
import SeedgenTestSupport
import Testing

/// A SwiftData app's next release when its models hold structs and enums (Composite attributes):
/// `migrate`, `update --model` and a dry run carry each element a version keeps, add those it
/// adds, drop those it removes, and refuse, naming the element, what Core Data is not known to do.
@Suite("Composite attributes across model versions")
struct CompositeMigrationTests {
    /// Two versions of a recipe: V2 keeps `difficulty` (a raw-value enum) and `course` (an enum
    /// without raw values) as they are, gives `nutrition` (a struct) a new member `sugar` and drops
    /// its `fat`, adds the case `dessert` to `course` and a new struct `origin`, and takes
    /// `notes` over from `remarks` by its original name.
    static func sources(v2Nutrition: String = "var calories: Int; var sugar: Double?", v2Difficulty: String = "Difficulty",
                        extra: String = "") -> String {
        """
        import SwiftData
        enum Difficulty: String, Codable { case easy, hard }
        enum Course: Codable { case starter, main }
        enum CourseV2: Codable { case starter, main, dessert }
        struct Origin: Codable { var country: String; var region: String? }
        enum SchemaV1: VersionedSchema {
            static var versionIdentifier = Schema.Version(1, 0, 0)
            static var models: [any PersistentModel.Type] { [Recipe.self] }
            struct Nutrition: Codable { var calories: Int; var fat: Double? }
            @Model final class Recipe {
                @Attribute(.unique) var name: String
                var difficulty: Difficulty
                var course: Course?
                var nutrition: Nutrition?
                var remarks: String?
                init(name: String) { self.name = name; self.difficulty = .easy }
            }
        }
        enum SchemaV2: VersionedSchema {
            static var versionIdentifier = Schema.Version(2, 0, 0)
            static var models: [any PersistentModel.Type] { [Recipe.self] }
            struct Nutrition: Codable { \(v2Nutrition) }
            @Model final class Recipe {
                @Attribute(.unique) var name: String
                var difficulty: \(v2Difficulty)
                var course: CourseV2?
                var nutrition: Nutrition?
                var origin: Origin?
                @Attribute(originalName: "remarks") var notes: String?
                \(extra)
                init(name: String) { self.name = name; self.difficulty = .easy }
            }
        }
        enum RecipePlan: SchemaMigrationPlan {
            static var schemas: [any VersionedSchema.Type] { [SchemaV1.self, SchemaV2.self] }
            static var stages: [MigrationStage] { [.lightweight(fromVersion: SchemaV1.self, toVersion: SchemaV2.self)] }
        }
        """
    }

    /// `sources` with `old` replaced by `new` in SchemaV2 only.
    static func inV2(_ sources: String, _ old: String, _ new: String) -> String {
        let parts = sources.components(separatedBy: "enum SchemaV2")
        return parts[0] + "enum SchemaV2" + parts[1].replacingOccurrences(of: old, with: new)
    }

    static let recipes = """
        {"Recipes": [
         {"name": "Soup", "difficulty": "easy", "course": "starter", "nutrition": {"calories": 120, "fat": 2.5}, "remarks": "hot"},
         {"name": "Stew", "difficulty": "hard", "course": "main", "nutrition": {"calories": 640}},
         {"name": "Tea", "difficulty": "easy"}
        ]}
        """

    static let rows = "SELECT ZNAME, ZDIFFICULTY, ZSTARTER, ZMAIN, ZCALORIES, ZNOTES FROM ZRECIPE ORDER BY ZNAME"
    static let carried = ["Soup|easy|starter||120|hot", "Stew|hard||main|640|", "Tea|easy||||"]

    /// A store built from the recipes under SchemaV1, and the sources' path.
    static func storeOfV1(_ sources: String = sources(), in directory: TemporaryDirectory) throws -> (store: String, model: String) {
        let model = try directory.write(sources, to: "Recipes.swift")
        let data = try directory.write(recipes, to: "recipes.json")
        let store = directory.path("Recipes.sqlite")
        let build = try SeedgenTool.run(["build", "--model", model, "--schema", "SchemaV1", "--output", store, data])
        #expect(build.status == 0, "\(build.error)")
        return (store, model)
    }

    @Test("migrate carries every element kept, adds new ones and cases as NULL, drops removed ones; verify finds the store V2's")
    func migrateCarriesElements() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let (store, model) = try Self.storeOfV1(in: directory)
        let dryRun = try SeedgenTool.run(["migrate", store, "--model", model, "--dry-run"])
        #expect(dryRun.status == 0, "\(dryRun.output)\(dryRun.error)")
        #expect(dryRun.output.contains("nutrition.fat"), "\(dryRun.output)")
        let migrate = try SeedgenTool.run(["migrate", store, "--model", model])
        #expect(migrate.status == 0, "\(migrate.output)\(migrate.error)")
        #expect(try SQLiteShell.rows(store, Self.rows) == Self.carried)
        #expect(try SQLiteShell.rows(store, "SELECT COUNT(*) FROM ZRECIPE WHERE ZSUGAR IS NOT NULL OR ZDESSERT IS NOT NULL OR ZCOUNTRY IS NOT NULL OR ZREGION IS NOT NULL") == ["0"])
        let columns = try SQLiteShell.rows(store, "SELECT name FROM pragma_table_info('ZRECIPE')")
        #expect(!columns.contains("ZFAT") && !columns.contains("ZREMARKS") && columns.contains("ZSUGAR"), "\(columns)")
        let verify = try SeedgenTool.run(["verify", store, "--model", model])
        #expect(verify.status == 0, "\(verify.output)\(verify.error)")
        // The migrated store takes V2's values where the new elements are.
        let more = try directory.write(#"{"Recipes": [{"name": "Tart", "difficulty": "easy", "course": "dessert", "nutrition": {"calories": 300, "sugar": 22.5}, "origin": {"country": "PT"}}]}"#, to: "more.json")
        let built = try SeedgenTool.run(["build", "--model", model, "--output", directory.path("v2.sqlite"), more])
        #expect(built.status == 0, "\(built.error)")
        #expect(try SQLiteShell.rows(directory.path("v2.sqlite"), "SELECT ZDESSERT, ZSUGAR, ZCOUNTRY FROM ZRECIPE") == ["dessert|22.5|PT"])
    }

    @Test("an installed V1 store takes a V2 seed through update --model: the user's edit of a Composite stays, the seed's changes arrive")
    func updateAcrossVersions() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let (seed1, model) = try Self.storeOfV1(in: directory)
        let installed = try directory.install(seed1, as: "installed.sqlite")
        // The user edits Stew's nutrition.
        try SQLiteShell.execute("UPDATE ZRECIPE SET ZCALORIES = 700, Z_OPT = Z_OPT + 1 WHERE ZNAME = 'Stew'", on: installed)
        let data2 = try directory.write("""
            {"Recipes": [
             {"name": "Soup", "difficulty": "hard", "course": "starter", "nutrition": {"calories": 120}, "notes": "hot"},
             {"name": "Stew", "difficulty": "hard", "course": "main", "nutrition": {"calories": 640, "sugar": 3}},
             {"name": "Tea", "difficulty": "easy"},
             {"name": "Tart", "difficulty": "easy", "course": "dessert", "nutrition": {"calories": 300, "sugar": 22.5}}
            ]}
            """, to: "recipes2.json")
        let seed2 = directory.path("seed2.sqlite")
        let build = try SeedgenTool.run(["build", "--model", model, "--output", seed2, data2])
        #expect(build.status == 0, "\(build.error)")
        let before = try SQLiteShell.rows(installed, "SELECT Z_PK, ZNAME FROM ZRECIPE ORDER BY ZNAME")
        let update = try SeedgenTool.run(["update", installed, "--seed", seed2, "--model", model])
        #expect(update.status == 0, "\(update.output)\(update.error)")
        #expect(try SQLiteShell.rows(installed, "SELECT ZNAME, ZDIFFICULTY, ZDESSERT, ZCALORIES, ZSUGAR FROM ZRECIPE ORDER BY ZNAME") == [
            "Soup|hard||120|", "Stew|hard||700|", "Tart|easy|dessert|300|22.5", "Tea|easy|||",
        ])
        // The objects the seed kept keep their Z_PK.
        let after = try SQLiteShell.rows(installed, "SELECT Z_PK, ZNAME FROM ZRECIPE WHERE ZNAME != 'Tart' ORDER BY ZNAME")
        #expect(after == before, "\(before) → \(after)")
        let verify = try SeedgenTool.run(["verify", installed, "--model", model])
        #expect(verify.status == 0, "\(verify.output)\(verify.error)")
    }

    @Test("a Composite renamed by its original name keeps its values: a struct, an enum by its cases, a raw-value enum whose one element takes the new name")
    func renamedComposites() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        var sources = Self.inV2(Self.sources(), "var difficulty: Difficulty", "@Attribute(originalName: \"difficulty\") var level: Difficulty")
        sources = Self.inV2(sources, "var course: CourseV2?", "@Attribute(originalName: \"course\") var meal: CourseV2?")
        sources = Self.inV2(sources, "var nutrition: Nutrition?", "@Attribute(originalName: \"nutrition\") var facts: Nutrition?")
        let (store, model) = try Self.storeOfV1(sources, in: directory)
        let migrate = try SeedgenTool.run(["migrate", store, "--model", model])
        #expect(migrate.status == 0, "\(migrate.output)\(migrate.error)")
        #expect(try SQLiteShell.rows(store, "SELECT ZNAME, ZLEVEL, ZSTARTER, ZMAIN, ZCALORIES FROM ZRECIPE ORDER BY ZNAME") == [
            "Soup|easy|starter||120", "Stew|hard||main|640", "Tea|easy|||",
        ])
        let verify = try SeedgenTool.run(["verify", store, "--model", model])
        #expect(verify.status == 0, "\(verify.output)\(verify.error)")
    }

    @Test("what Core Data is not known to do is refused naming the element, in the dry run and the run alike, the store unchanged",
          arguments: [
            // A member's type changes.
            (sources(v2Nutrition: "var calories: Double; var sugar: Double?"), "Recipe.nutrition.calories", "the type changes from Integer 64 to Double"),
            // A String becomes an enum (a Composite).
            (sources(extra: "").replacingOccurrences(of: "var remarks: String?", with: "var remarks: String?\n        var level: String?")
                .replacingOccurrences(of: "@Attribute(originalName: \"remarks\") var notes: String?", with: "@Attribute(originalName: \"remarks\") var notes: String?\n        var level: Difficulty?"),
             "Recipe.level", "the type changes from String to Composite"),
            // A required member is added to a struct values are stored in.
            (sources(v2Nutrition: "var calories: Int; var sugar: Double"), "Recipe.nutrition.sugar", "a member every nutrition value must give is added"),
            // An optional struct made required: a row without one has no calories.
            (inV2(sources(), "var nutrition: Nutrition?", "var nutrition: Nutrition"), "Recipe.nutrition.calories", "becomes required without a default, and some Recipe rows hold no value"),
          ])
    func refusals(_ sources: String, _ subject: String, _ reason: String) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let (store, model) = try Self.storeOfV1(sources, in: directory)
        let before = try Data(contentsOf: URL(fileURLWithPath: store))
        for arguments in [["migrate", store, "--model", model, "--dry-run"], ["migrate", store, "--model", model]] {
            let migrate = try SeedgenTool.run(arguments)
            #expect(migrate.status == 1, "\(arguments): \(migrate.output)\(migrate.error)")
            #expect((migrate.output + migrate.error).contains("\(subject): \(reason)"), "\(arguments): \(migrate.output)\(migrate.error)")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: store)) == before)
    }
}
