import Foundation
import SeedModel
import SeedModelLoader
import SeedgenTestSupport
import Testing
import SeedEvolution
import SeedStore

/// A store installed with the packed record goes through its app's migrations and later updates
/// as one installed with the full record: the same rows, `Z_PK`s and reports. A migration that
/// keeps every entity's record rows (renames, added attributes with their defaults, entities
/// renumbered) keeps the record packed, with no row read; one that digests an entity again
/// unpacks it first, whatever an earlier migration left (digest rules, entity numbers).
@Suite("Packed seed record through migrations")
struct PackedRecordMigrationTests {
    typealias Recipes = PackedRecordTests.Recipes

    /// Version 1: recipes keyed by name, their ingredients named by their values.
    static let v1 = RecipeModel.entities()

    /// Version 2, every record row kept: an entity that sorts first (every entity renumbered),
    /// Recipe renamed Dish by renaming identifier, Ingredient given `unit` with a default
    /// (which every ingredient's name by its values now covers).
    static let kept = """
        <entity name="Aardvark">
            <attribute name="city" optional="YES" attributeType="String"/>
        </entity>
        <entity name="Dish" elementID="Recipe">
            <attribute name="name" attributeType="String"/>
            <relationship name="ingredients" optional="YES" toMany="YES" deletionRule="Cascade" destinationEntity="Ingredient" inverseName="recipe" inverseEntity="Ingredient"/>
            <uniquenessConstraints><uniquenessConstraint><constraint value="name"/></uniquenessConstraint></uniquenessConstraints>
        </entity>
        <entity name="Ingredient">
            <attribute name="amount" optional="YES" attributeType="Integer 32"/>
            <attribute name="name" attributeType="String"/>
            <attribute name="unit" optional="YES" attributeType="String" defaultValueString="g"/>
            <relationship name="recipe" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Dish" inverseName="ingredients" inverseEntity="Dish"/>
        </entity>
        """

    /// `model` with Ingredient's `amount` removed: every ingredient digested and named again.
    static func withoutAmount(_ model: String) -> String {
        model.replacingOccurrences(of: "<attribute name=\"amount\" optional=\"YES\" attributeType=\"Integer 32\"/>", with: "")
    }

    /// The model documents a store goes through, one migration a step after version 1, and
    /// whether the record stays packed through all of them.
    static let paths: [(name: String, steps: [String], staysPacked: Bool)] = [
        ("every row kept", [kept], true),
        ("digested again", [withoutAmount(v1)], false),
        ("kept, then digested again", [kept, withoutAmount(kept)], false),
    ]

    /// A model document of `entities`.
    static func document(_ entities: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" userDefinedModelVersionIdentifier="">
        \(entities)
        </model>
        """
    }

    /// A bundle `name` of version 1 and `steps` up to `current` (an index into `steps`), whose
    /// current version is that step.
    static func bundle(_ steps: [String], current: Int, named name: String, in directory: TemporaryDirectory) throws -> ModelVersions {
        for (index, entities) in ([v1] + steps).enumerated() {
            try directory.write(document(entities), to: "\(name).xcdatamodeld/V\(index + 1).xcdatamodel/contents")
        }
        try directory.write("""
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict><key>_XCCurrentVersionName</key><string>V\(current + 2).xcdatamodel</string></dict></plist>
            """, to: "\(name).xcdatamodeld/.xccurrentversion")
        return try ModelLoader.loadVersions(from: directory.path("\(name).xcdatamodeld"))
    }

    /// Every row of the store's recipe (or dish) and ingredient tables and `Z_PRIMARYKEY`.
    static func rows(_ path: String) throws -> [String] {
        let database = try Database(path: path, mode: .readOnly)
        let owner = try database.scalar("SELECT name FROM sqlite_master WHERE name IN ('ZRECIPE', 'ZDISH')")?.text ?? "ZRECIPE"
        return try [owner, "ZINGREDIENT", "Z_PRIMARYKEY"].flatMap { table in
            try database.rows("SELECT * FROM \(table) ORDER BY 1, 2").map { "\(table): " + $0.map(\.description).joined(separator: "|") }
        }
    }

    /// Which of the record's tables the store holds.
    static func recordTables(_ path: String) throws -> [String] {
        try SQLiteShell.rows(path, "SELECT name FROM sqlite_master WHERE name IN ('SEEDGEN_SEEDED', 'SEEDGEN_PACKED') ORDER BY name")
    }

    @Test("random seeds and user edits, migrated and updated twice: the packed record ends as the full one, row for row, report for report; kept packed by a migration that keeps every record row", arguments: paths.indices)
    func migratedAsTheFullRecord(path index: Int) throws {
        let path = Self.paths[index]
        var random = SplitMix64(seed: 0x5eed_0000 + UInt64(index))
        for round in 0..<PropertyCases.count(makeTest: 8) {
            let directory = try TemporaryDirectory()
            defer { directory.remove() }
            let first = PackedRecordTests.recipes("R", using: &random)
            let second = PackedRecordTests.newer(first, round: round, using: &random)
            let third = PackedRecordTests.newer(second, round: round + 1000, using: &random)
            let original = directory.path("seed1.sqlite")
            try KeylessIdentityTests.seed(try StoreFixture.model(Self.v1, in: directory), at: original, first)
            let full = try directory.install(original, as: "full.sqlite", packed: false)
            let packed = try directory.install(original, as: "packed.sqlite")
            let edits = PackedRecordTests.userEdits(using: &random, round: round)
            for edit in edits {
                try SQLiteShell.execute(edit, on: full)
                try SQLiteShell.execute(edit, on: packed)
            }
            let context = "\(path.name), round \(round), \(edits)"
            var versions: ModelVersions?
            for step in path.steps.indices {
                let bundle = try Self.bundle(path.steps, current: step, named: "Recipes\(step)", in: directory)
                let reports = try [full, packed].map { try StoreMigrator(storeAt: $0, versions: bundle).migrate() }
                #expect(reports.allSatisfy(\.migrated) && reports[0].rowCounts == reports[1].rowCounts, "\(context): \(reports)")
                #expect(try Self.rows(full) == Self.rows(packed), "\(context), migration \(step + 1)")
                versions = bundle
            }
            #expect(try Self.recordTables(packed) == [path.staysPacked ? "SEEDGEN_PACKED" : "SEEDGEN_SEEDED"], "\(context): the record after the migrations")
            let layout = try StoreLayout(model: try #require(versions).current.model)
            for (number, recipes) in [second, third].enumerated() {
                let seed = directory.path("seed\(number + 2).sqlite")
                try KeylessIdentityTests.seed(layout.model, at: seed, recipes)
                try PackedRecordTests.updateAlike(full: full, packed: packed, seed: seed, layout: layout, rows: Self.rows, context: "\(context), update \(number + 1)")
            }
        }
    }

    @Test("a migration that keeps every record row leaves the packed record's bytes as they were, and an update to the same objects finds every one as seeded")
    func keptPackedByteForByte() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let seed = directory.path("seed.sqlite")
        let recipes: Recipes = [("Soup", [("salt", 1), ("salt", 1), ("water", 2)]), ("Stew", [("salt", 1)]), ("Tea", [])]
        try KeylessIdentityTests.seed(try StoreFixture.model(Self.v1, in: directory), at: seed, recipes)
        let store = try directory.install(seed, as: "store.sqlite")
        let packed = "SELECT ENTITY, FIRSTPK, hex(ENTRIES) FROM SEEDGEN_PACKED ORDER BY ENTITY, FIRSTPK"
        let before = try SQLiteShell.rows(store, packed)
        let versions = try Self.bundle([Self.kept], current: 0, named: "Recipes", in: directory)
        #expect(try StoreMigrator(storeAt: store, versions: versions).migrate().migrated)
        #expect(try SQLiteShell.rows(store, packed) == before)
        #expect(try Self.recordTables(store) == ["SEEDGEN_PACKED"])
        // Ingredient 1 → 3, Recipe 2 → Dish 2: the rows stay under the numbers they were packed under.
        #expect(try SQLiteShell.rows(store, "SELECT RECORDED, ENTITY FROM SEEDGEN_RENUMBERED ORDER BY 1") == ["1|3", "2|2"])
        let next = directory.path("next.sqlite")
        try KeylessIdentityTests.seed(versions.current.model, at: next, recipes)
        let report = try SeedUpdater(storeAt: store, seedAt: next, layout: try StoreLayout(model: versions.current.model)).update()
        let moved = report.added + report.changed + report.removed + report.keptChangedByUser + report.keptDeletedByUser + report.keptUserObject
        #expect(moved.isEmpty, "\(report)")
    }
}
