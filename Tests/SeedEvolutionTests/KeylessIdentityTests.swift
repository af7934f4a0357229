import Foundation
import SeedModel
import SeedgenTestSupport
import Testing
@testable import SeedEvolution
import SeedStore

/// Objects without a key of their own keep their identity through an update: an ingredient is
/// named by its values within its recipe, so a newer seed that drops other recipes renumbers
/// none of them (before, their ordinals among equal ingredients of every recipe shifted, and the
/// update moved unchanged rows, their `Z_PK`s, to other recipes).
@Suite("Identity of objects without a key")
struct KeylessIdentityTests {
    static let entities = RecipeModel.entities()

    /// A seed of `recipes` (name → ingredients as (name, amount)), rows in the order given, in
    /// any version of the recipe model (`PackedRecordMigrationTests`): recipes (or dishes) and
    /// their ingredients numbered as its layout numbers them, each ingredient with its amount and
    /// the unit's default where the model has them.
    static func seed(_ model: DataModel, at path: String, _ recipes: [(String, [(String, Int)])]) throws {
        let layout = try StoreLayout(model: model)
        let owner = try #require(layout.entity(named: "Dish") ?? layout.entity(named: "Recipe"))
        let ingredient = try #require(layout.entity(named: "Ingredient"))
        let attributes = Set(try #require(model.entity(named: "Ingredient")).attributes.map(\.name))
        let columns = ["Z_PK", "Z_ENT", "Z_OPT", "ZNAME", "ZRECIPE"] + (attributes.contains("amount") ? ["ZAMOUNT"] : []) + (attributes.contains("unit") ? ["ZUNIT"] : [])
        try StoreFixture.build(model, at: path) { database in
            var pk = 0
            for (index, (name, ingredients)) in recipes.enumerated() {
                try database.execute("INSERT INTO \(owner.table) (Z_PK, Z_ENT, Z_OPT, ZNAME) VALUES (\(index + 1), \(owner.number), 1, '\(name)')")
                for (name, amount) in ingredients {
                    pk += 1
                    let values = ["\(pk)", "\(ingredient.number)", "1", "'\(name)'", "\(index + 1)"] + (attributes.contains("amount") ? ["\(amount)"] : []) + (attributes.contains("unit") ? ["'g'"] : [])
                    try database.execute("INSERT INTO ZINGREDIENT (\(columns.joined(separator: ", "))) VALUES (\(values.joined(separator: ", ")))")
                }
            }
        }
    }

    /// Each ingredient row: `Z_PK`, its recipe's name, its name and amount.
    static func ingredients(_ path: String) throws -> [Int64: String] {
        Dictionary(uniqueKeysWithValues: try Database(path: path, mode: .readOnly).rows("""
            SELECT i.Z_PK, IFNULL(r.ZNAME, '-') || ':' || i.ZNAME || '=' || IFNULL(i.ZAMOUNT, 0) FROM ZINGREDIENT i LEFT JOIN ZRECIPE r ON r.Z_PK = i.ZRECIPE
            """).map { ($0[0].integer ?? 0, $0[1].text ?? "") })
    }

    /// Seed 1, installed; seed 2 made from it by `change`; the update; the ingredients of the
    /// recipes whose lists seed 2 left as they were, before and after (by `Z_PK`), and verify's findings.
    static func update(seed1 recipes: [(String, [(String, Int)])], seed2: [(String, [(String, Int)])]) throws
        -> (before: [Int64: String], after: [Int64: String], findings: [String], report: SeedUpdateReport) {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let model = try StoreFixture.model(entities, in: directory)
        let layout = try StoreLayout(model: model)
        let store = directory.path("store.sqlite"), next = directory.path("seed2.sqlite")
        try seed(model, at: store, recipes)
        try seed(model, at: next, seed2)
        _ = try SeedRecord.recordInstalledCopy(at: store)
        let unchanged = Set(seed2.filter { recipe in recipes.contains { $0.0 == recipe.0 && $0.1.map { "\($0)" } == recipe.1.map { "\($0)" } } }.map(\.0))
        let before = try ingredients(store).filter { unchanged.contains(String($0.value.prefix { $0 != ":" })) }
        let report = try SeedUpdater(storeAt: store, seedAt: next, layout: layout).update()
        let after = try ingredients(store).filter { before[$0.key] != nil || unchanged.contains(String($0.value.prefix { $0 != ":" })) }
        let findings = try StoreVerifier(storePath: store, layout: layout).verify().filter { !$0.isNote }.map { "\($0)" }
        return (before, after, findings, report)
    }

    @Test("a newer seed that removes other recipes moves no ingredient: each unchanged one keeps its Z_PK and its recipe")
    func removingOtherOwnersMovesNothing() throws {
        // Every recipe holds salt, some twice: equal ingredients across recipes.
        let recipes = (0..<8).map { index in ("R\(index)", [("salt", 1), ("water", index % 3)] + (index % 2 == 0 ? [("salt", 1)] : [])) }
        let (before, after, findings, report) = try Self.update(seed1: recipes, seed2: recipes.enumerated().filter { $0.offset % 3 != 1 }.map(\.element))
        #expect(!before.isEmpty && after == before, "moved: \(after.filter { before[$0.key] != $0.value })")
        #expect(report.changed.isEmpty && report.added.isEmpty, "\(report)")
        #expect(findings.isEmpty, "\(findings)")
    }

    @Test("random seed pairs: every ingredient of a recipe whose list the newer seed left as it was keeps its Z_PK and its recipe")
    func unchangedKeepTheirIdentity() throws {
        var random = SplitMix64(seed: 0x5eed)
        for round in 0..<PropertyCases.count(makeTest: 25) {
            let names = ["salt", "water", "oil", "egg"]
            let recipes = (0..<Int.random(in: 2...10, using: &random)).map { index in
                ("R\(index)", (0..<Int.random(in: 0...5, using: &random)).map { _ in (names.randomElement(using: &random)!, Int.random(in: 0...2, using: &random)) })
            }
            var next = recipes.filter { _ in Int.random(in: 0..<4, using: &random) > 0 }
            for index in next.indices where Bool.random(using: &random) && Bool.random(using: &random) {
                next[index].1.append((names.randomElement(using: &random)!, 3))
            }
            if Bool.random(using: &random) { next.append(("New\(round)", [("salt", 1)])) }
            next.shuffle(using: &random)
            let (before, after, findings, _) = try Self.update(seed1: recipes, seed2: next)
            #expect(before.allSatisfy { after[$0.key] == $0.value }, "round \(round): moved \(before.filter { after[$0.key] != $0.value }.map { "\($0.key): \($0.value) → \(after[$0.key] ?? "gone")" })")
            #expect(findings.isEmpty, "round \(round): \(findings)")
        }
    }

    @Test("a store recorded before names held owners (no namesWithinOwners in its metadata) goes on being named so: a seed that only adds a recipe adds just it")
    func recordWithoutOwnersStillUpdates() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let model = try StoreFixture.model(Self.entities, in: directory)
        let layout = try StoreLayout(model: model)
        let store = directory.path("store.sqlite"), next = directory.path("seed2.sqlite")
        let recipes = (0..<4).map { ("R\($0)", [("salt", 1), ("salt", 1), ("water", $0)]) }
        try Self.seed(model, at: store, recipes)
        try Self.seed(model, at: next, recipes + [("New", [("salt", 1)])])
        let seedMetadata = try #require(try Database(path: store, mode: .readOnly).metadataRow()?.plist)
        _ = try SeedRecord.recordInstalledCopy(at: store, packed: false)
        #expect(try StoreMetadata(decoding: try #require(try Database(path: store, mode: .readOnly).metadataRow()?.plist)).namesWithinOwners)
        // As an earlier seedgen recorded it: every object named by its values alone, no marker.
        let database = try Database(path: store, mode: .readWrite)
        database.registerRowDigest()
        let legacy = ObjectNames(layout: layout, buildKeys: [:], contentByDigest: true, namedWithoutOwner: Set(layout.entities.map(\.name)))
        try database.execute("DELETE FROM \(SeedRecord.table)")
        for entity in layout.entities {
            try database.execute("INSERT INTO \(SeedRecord.table) (\(SeedRecord.recordRowsColumns)) \(try #require(SeedRecord.recordRowsSQL(of: entity, names: legacy, identifiers: nil)))")
        }
        #expect(try database.scalar("SELECT COUNT(*) FROM \(SeedRecord.table) WHERE instr(KEY, ' @') > 0") == .integer(0))
        let metadata = try StoreMetadata(decoding: seedMetadata)
        try database.run("UPDATE Z_METADATA SET Z_PLIST = ?", [.blob(try StoreMetadata.updating(seedMetadata, toSeed: metadata))])
        let before = try Self.ingredients(store)
        let report = try SeedUpdater(storeAt: store, seedAt: next, layout: layout).update()
        #expect(report.added.count == 2 && report.changed.isEmpty && report.removed.isEmpty, "\(report)")
        #expect(try Self.ingredients(store).filter { before[$0.key] != nil } == before)
        #expect(try !StoreMetadata(decoding: try #require(try Database(path: store, mode: .readOnly).metadataRow()?.plist)).namesWithinOwners)
    }
}
