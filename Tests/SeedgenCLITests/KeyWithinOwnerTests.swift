import Foundation
import SeedgenTestSupport
import Testing

/// A key through a to-one (`--key Ingredient=recipe,name`): children named within their owner by
/// values the app keeps, so a newer seed's change to one is a change in place (it keeps its
/// `Z_PK`), where a child named by all its values is removed and added again.
@Suite("A key through the owner")
struct KeyWithinOwnerTests {
    static let model = """
        <?xml version="1.0"?>
        <model>
        \(RecipeModel.entities(ingredientExtras: #"<relationship name="tags" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Tag" inverseName="ingredient" inverseEntity="Tag"/>"#))
        <entity name="Tag">
            <attribute name="label" attributeType="String"/>
            <relationship name="ingredient" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Ingredient" inverseName="tags" inverseEntity="Ingredient"/>
        </entity>
        <entity name="Note">
            <attribute name="text" attributeType="String"/>
        </entity>
        </model>
        """

    /// Seed JSON of `recipes`: name → ingredients (name, amount).
    static func json(_ recipes: [(String, [(String, Int)])]) -> String {
        let list = recipes.map { name, ingredients in
            #"{"name": "\#(name)", "ingredients": ["# + ingredients.map { #"{"name": "\#($0.0)", "amount": \#($0.1)}"# }.joined(separator: ", ") + "]}"
        }
        return #"{"Recipes": ["# + list.joined(separator: ",\n") + "]}"
    }

    static func build(_ recipes: [(String, [(String, Int)])], as name: String, key: [String] = ["--key", "Ingredient=recipe,name"],
                      in directory: TemporaryDirectory) throws -> (path: String, result: SeedgenTool.Result) {
        let model = try directory.write(Self.model, to: "Kitchen.xcdatamodel/contents")
        let source = try directory.write(json(recipes), to: "\(name).json")
        let output = directory.path("\(name).sqlite")
        return (output, try SeedgenTool.run(["build", "--model", model, "--output", output, "--quiet", source] + key))
    }

    /// Each ingredient row by `Z_PK`: its recipe's name, its name and amount.
    static func ingredients(_ path: String) throws -> [Int64: String] {
        Dictionary(uniqueKeysWithValues: try SQLiteShell.rows(path, """
            SELECT i.Z_PK, IFNULL(r.ZNAME, '-') || ':' || i.ZNAME || '=' || IFNULL(i.ZAMOUNT, 0) FROM ZINGREDIENT i LEFT JOIN ZRECIPE r ON r.Z_PK = i.ZRECIPE
            """).map { line in
            let parts = line.split(separator: "|", maxSplits: 1)
            return (Int64(parts[0]) ?? 0, String(parts[1]))
        })
    }

    static let recipes: [(String, [(String, Int)])] = [
        ("Soup", [("salt", 1), ("water", 2)]),
        ("Bread", [("salt", 1), ("flour", 5)]),
        ("Tea", [("water", 1)]),
    ]

    @Test("a newer seed changes one ingredient: it is changed in place (its Z_PK kept), nothing else moves; the user's edit of another stays")
    func changedInPlace() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let seed1 = try Self.build(Self.recipes, as: "v1", in: directory)
        #expect(seed1.result.status == 0, "\(seed1.result.error)")
        var next = Self.recipes
        next[0].1[0].1 = 3      // Soup's salt: 1 → 3
        next.remove(at: 1)      // Bread gone
        let seed2 = try Self.build(next, as: "v2", in: directory)
        #expect(seed2.result.status == 0, "\(seed2.result.error)")
        let diff = try SeedgenTool.run(["diff", seed1.path, seed2.path])
        #expect(diff.output.contains(#"~ Ingredient[name="salt"] in Recipe[name="Soup"]: amount 1 -> 3"#), "\(diff.output)")
        #expect(diff.output.contains(#"- Ingredient[name="salt"] in Recipe[name="Bread"]"#), "\(diff.output)")
        let store = try directory.install(seed1.path, as: "store.sqlite")
        try SQLiteShell.execute("UPDATE ZINGREDIENT SET ZAMOUNT = 9, Z_OPT = Z_OPT + 1 WHERE ZNAME = 'water' AND ZRECIPE = (SELECT Z_PK FROM ZRECIPE WHERE ZNAME = 'Tea')", on: store)
        let before = try Self.ingredients(store)
        let update = try SeedgenTool.run(["update", store, "--seed", seed2.path, "--model", directory.path("Kitchen.xcdatamodel")])
        #expect(update.status == 0, "\(update.output)\(update.error)")
        // Named by its key within its recipe, and changed, not removed and added.
        #expect(update.output.contains(#"Ingredient[name="salt" in Recipe[name="Soup"]]"#), "\(update.output)")
        #expect(!update.output.contains("+ Ingredient"), "\(update.output)")
        let after = try Self.ingredients(store)
        let soupSalt = try #require(before.first { $0.value == "Soup:salt=1" }?.key)
        #expect(after[soupSalt] == "Soup:salt=3")
        for (pk, row) in before where !row.hasPrefix("Bread:") && pk != soupSalt {
            #expect(after[pk] == row, "Z_PK \(pk): \(row) → \(after[pk] ?? "gone")")
        }
        #expect(!after.values.contains { $0.hasPrefix("Bread:") || $0.hasPrefix("-:") })
        let verify = try SeedgenTool.run(["verify", store, "--model", directory.path("Kitchen.xcdatamodel")])
        #expect(verify.status == 0, "\(verify.output)\(verify.error)")
    }

    @Test("random seed pairs: every ingredient whose recipe and name both seeds hold keeps its Z_PK and takes the newer amount; the store ends as the newer seed")
    func keptAcrossRandomSeeds() throws {
        var random = SplitMix64(seed: 0x0e4e)
        let names = ["salt", "water", "oil", "egg", "flour", "milk"]
        for round in 0..<PropertyCases.count(makeTest: 12) {
            let directory = try TemporaryDirectory()
            defer { directory.remove() }
            func ingredients() -> [(String, Int)] {
                names.shuffled(using: &random).prefix(Int.random(in: 0...4, using: &random)).map { ($0, Int.random(in: 0...3, using: &random)) }
            }
            let recipes = (0..<Int.random(in: 1...6, using: &random)).map { ("R\($0)", ingredients()) }
            var next = recipes.filter { _ in Int.random(in: 0..<4, using: &random) > 0 }.map { recipe in
                (recipe.0, recipe.1.filter { _ in Int.random(in: 0..<5, using: &random) > 0 }.map { ($0.0, Bool.random(using: &random) ? $0.1 : $0.1 + 10) })
            }
            if Bool.random(using: &random) { next.append(("New\(round)", ingredients())) }
            next.shuffle(using: &random)
            let seed1 = try Self.build(recipes, as: "v1", in: directory), seed2 = try Self.build(next, as: "v2", in: directory)
            try #require(seed1.result.status == 0 && seed2.result.status == 0, "\(seed1.result.error)\(seed2.result.error)")
            let store = try directory.install(seed1.path, as: "store.sqlite")
            let before = try Self.ingredients(store)
            let update = try SeedgenTool.run(["update", store, "--seed", seed2.path, "--model", directory.path("Kitchen.xcdatamodel")])
            try #require(update.status == 0, "round \(round): \(update.error)")
            let after = try Self.ingredients(store)
            let wanted = Dictionary(uniqueKeysWithValues: next.flatMap { recipe in recipe.1.map { ("\(recipe.0):\($0.0)", $0.1) } })
            #expect(Set(after.values) == Set(wanted.map { "\($0.key)=\($0.value)" }), "round \(round): \(after.values.sorted()) against \(wanted)")
            for (pk, row) in before {
                let name = String(row.prefix { $0 != "=" })
                guard let amount = wanted[name] else { continue }
                #expect(after[pk] == "\(name)=\(amount)", "round \(round): Z_PK \(pk) \(row) → \(after[pk] ?? "gone")")
            }
        }
    }

    /// A model's constraint over (recipe, name) was taken as a key of name alone: two recipes'
    /// salt were one object, refused for its two amounts.
    @Test("a model's uniqueness constraint over a to-one merges no objects of different owners: both recipes keep their salt")
    func modelConstraintOverAToOne() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let constrained = Self.model.replacingOccurrences(of: #"<attribute name="amount" optional="YES" attributeType="Integer 32"/>"#, with: """
            <attribute name="amount" optional="YES" attributeType="Integer 32"/>
            <uniquenessConstraints><uniquenessConstraint><constraint value="recipe"/><constraint value="name"/></uniquenessConstraint></uniquenessConstraints>
            """)
        #expect(constrained != Self.model, "RecipeModel changed: update this test")
        let model = try directory.write(constrained, to: "Kitchen.xcdatamodel/contents")
        let source = try directory.write(Self.json([("Soup", [("salt", 1)]), ("Stew", [("salt", 2)])]), to: "seed.json")
        let output = directory.path("seed.sqlite")
        let build = try SeedgenTool.run(["build", "--model", model, "--output", output, "--quiet", source])
        #expect(build.status == 0, "\(build.error)")
        #expect(try SQLiteShell.rows(output, "SELECT r.ZNAME, i.ZNAME, i.ZAMOUNT FROM ZINGREDIENT i JOIN ZRECIPE r ON r.Z_PK = i.ZRECIPE ORDER BY 1") == ["Soup|salt|1", "Stew|salt|2"])
    }

    @Test("without the key, the same change removes Soup's salt and adds it again: what the key is for")
    func withoutTheKeyReplaced() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        var next = Self.recipes
        next[0].1[0].1 = 3
        let seed1 = try Self.build(Self.recipes, as: "v1", key: [], in: directory)
        let seed2 = try Self.build(next, as: "v2", key: [], in: directory)
        let store = try directory.install(seed1.path, as: "store.sqlite")
        let before = try Self.ingredients(store)
        let update = try SeedgenTool.run(["update", store, "--seed", seed2.path, "--model", directory.path("Kitchen.xcdatamodel")])
        #expect(update.status == 0, "\(update.output)\(update.error)")
        let soupSalt = try #require(before.first { $0.value == "Soup:salt=1" }?.key)
        #expect(try Self.ingredients(store)[soupSalt] == nil)
    }

    @Test("two ingredients of one recipe under one name: refused at the second, naming the first's place and the key; the same name in two recipes is not a clash")
    func twiceWithinOneOwner() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let seed = try Self.build([("Soup", [("salt", 1), ("water", 2)]), ("Bread", [("salt", 1)]), ("Stew", [("pepper", 1), ("salt", 2), ("salt", 4)])], as: "twice", in: directory)
        #expect(seed.result.status == 1, "\(seed.result.error)")
        #expect(seed.result.error.contains("twice.json:3:"), "\(seed.result.error)")
        #expect(seed.result.error.contains(#"has the key of Ingredient #"#) && seed.result.error.contains("(defined at ") && seed.result.error.contains("twice.json:3:"), "\(seed.result.error)")
        #expect(seed.result.error.contains(#"name="salt" in Recipe[name="Stew"]"#), "\(seed.result.error)")
        #expect(!FileManager.default.fileExists(atPath: seed.path))
    }

    @Test("a reference by key cannot name an object keyed within its owner: refused, saying why and what to do instead")
    func referenceByKey() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let model = try directory.write(Self.model, to: "Kitchen.xcdatamodel/contents")
        let source = try directory.write(#"{"Recipes": [{"name": "Soup", "ingredients": [{"name": "salt"}]}], "Tags": [{"label": "x", "ingredient": "salt"}]}"#, to: "ref.json")
        let result = try SeedgenTool.run(["build", "--model", model, "--output", directory.path("ref.sqlite"), "--key", "Ingredient=recipe,name", source])
        #expect(result.status == 1 && result.error.contains("ref.json:1:") && result.error.contains("names its objects within their owner"), "\(result.error)")
    }

    @Test("keys through a to-one that cannot name an owner are refused before any work, exit 2",
          arguments: [
            (["Ingredient=tags,name"], "'tags' is a to-many"),
            (["Ingredient=recipe"], "name an attribute beside the to-one 'recipe'"),
            (["Tag=ingredient,label"], "'ingredient' leads to Ingredient, which has no key"),
            (["Tag=ingredient,label", "Ingredient=recipe,name"], ""),
            (["Ingredient=recipe,name,tags"], "'tags' is a to-many"),
            (["Ingredient=recipe,nam"], #"has no stored attribute 'nam'"#),
          ])
    func refusedKeys(keys: [String], message: String) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let seed = try Self.build(Self.recipes, as: "v1", key: keys.flatMap { ["--key", $0] }, in: directory)
        if message.isEmpty {
            #expect(seed.result.status == 0, "\(seed.result.error)")
        } else {
            #expect(seed.result.status == 2 && seed.result.error.contains(message), "\(seed.result.status): \(seed.result.error)")
            #expect(!FileManager.default.fileExists(atPath: seed.path))
        }
    }
}
