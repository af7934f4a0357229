import Foundation
import SeedModel
import SeedgenTestSupport
import Testing
import SeedEvolution
import SeedStore

/// The packed record (ten bytes an object: a digest's and a key's first 5 bytes each) updates a
/// store as the full record (each key as text, 16-byte digests) does: the same rows, `Z_PK`s
/// and report, whatever the user changed, deleted or renamed, over two updates in a row.
@Suite("Packed seed record")
struct PackedRecordTests {
    typealias Recipes = [(String, [(String, Int)])]

    /// Every row of the recipe model's tables, `Z_MAX` and the record's link count aside: what
    /// two updates must agree on.
    static func rows(_ path: String) throws -> [String] {
        let database = try Database(path: path, mode: .readOnly)
        return try database.rows("""
            SELECT 'R' || Z_PK || '|' || Z_OPT || '|' || ZNAME FROM ZRECIPE
            UNION ALL SELECT 'I' || Z_PK || '|' || Z_OPT || '|' || ZNAME || '|' || IFNULL(ZAMOUNT, '-') || '|' || IFNULL(ZRECIPE, '-') FROM ZINGREDIENT
            UNION ALL SELECT 'P' || Z_NAME || '|' || Z_MAX FROM Z_PRIMARYKEY ORDER BY 1
            """).map { $0[0].text ?? "" }
    }

    /// Random recipes: up to 8, each with up to 5 ingredients drawn from four names (equal ones
    /// within and across recipes).
    static func recipes(_ prefix: String, using random: inout SplitMix64) -> Recipes {
        let names = ["salt", "water", "oil", "egg"]
        return (0..<Int.random(in: 1...8, using: &random)).map { index in
            ("\(prefix)\(index)", (0..<Int.random(in: 0...5, using: &random)).map { _ in (names.randomElement(using: &random)!, Int.random(in: 0...2, using: &random)) })
        }
    }

    /// A newer seed from `recipes`: some dropped, some lists grown or cut, one new, shuffled.
    static func newer(_ recipes: Recipes, round: Int, using random: inout SplitMix64) -> Recipes {
        var next = recipes.filter { _ in Int.random(in: 0..<4, using: &random) > 0 }
        for index in next.indices {
            switch Int.random(in: 0..<5, using: &random) {
            case 0: next[index].1.append(("salt", 3))
            case 1: if !next[index].1.isEmpty { next[index].1.removeFirst() }
            case 2: if !next[index].1.isEmpty { next[index].1[0].1 += 1 }
            default: break
            }
        }
        if Bool.random(using: &random) { next.append(("New\(round)", [("salt", 1), ("salt", 1)])) }
        next.shuffle(using: &random)
        return next
    }

    /// What a user may do, as SQL on the store: change an ingredient, delete one (its equal
    /// siblings' ordinals shift), rename a recipe (its key, and so every ingredient's owner),
    /// delete a recipe with its ingredients, add objects of their own.
    static func userEdits(using random: inout SplitMix64, round: Int) -> [String] {
        var edits: [String] = []
        for _ in 0..<Int.random(in: 0...4, using: &random) {
            let pick = Int.random(in: 1...30, using: &random)
            switch Int.random(in: 0..<6, using: &random) {
            case 0: edits.append("UPDATE ZINGREDIENT SET ZAMOUNT = ZAMOUNT + 7, Z_OPT = Z_OPT + 1 WHERE Z_PK = \(pick)")
            case 1: edits.append("DELETE FROM ZINGREDIENT WHERE Z_PK = \(pick)")
            case 2: edits.append("UPDATE ZRECIPE SET ZNAME = 'Mine' || Z_PK, Z_OPT = Z_OPT + 1 WHERE Z_PK = \(pick % 8 + 1)")
            case 3: edits.append("DELETE FROM ZINGREDIENT WHERE ZRECIPE = \(pick % 8 + 1); DELETE FROM ZRECIPE WHERE Z_PK = \(pick % 8 + 1)")
            case 4: edits.append("""
                INSERT INTO ZRECIPE (Z_PK, Z_ENT, Z_OPT, ZNAME) SELECT Z_MAX + 1, 2, 1, 'User\(round)x' || (Z_MAX + 1) FROM Z_PRIMARYKEY WHERE Z_NAME = 'Recipe';
                UPDATE Z_PRIMARYKEY SET Z_MAX = Z_MAX + 1 WHERE Z_NAME = 'Recipe'
                """)
            default: edits.append("""
                INSERT INTO ZINGREDIENT (Z_PK, Z_ENT, Z_OPT, ZNAME, ZAMOUNT, ZRECIPE) SELECT Z_MAX + 1, 1, 1, 'salt', 1, (SELECT MIN(Z_PK) FROM ZRECIPE WHERE Z_PK >= \(pick % 8 + 1)) FROM Z_PRIMARYKEY WHERE Z_NAME = 'Ingredient';
                UPDATE Z_PRIMARYKEY SET Z_MAX = Z_MAX + 1 WHERE Z_NAME = 'Ingredient'
                """)
            }
        }
        return edits
    }

    @Test("random seeds, user edits and two updates in a row: a store installed with the packed record ends as one installed with the full record, row for row, report for report")
    func packedUpdatesAsTheFullRecord() throws {
        var random = SplitMix64(seed: 0x9ac4ed)
        var resolved = 0
        for round in 0..<PropertyCases.count(makeTest: 40) {
            let directory = try TemporaryDirectory()
            defer { directory.remove() }
            let model = try StoreFixture.model(KeylessIdentityTests.entities, in: directory)
            let layout = try StoreLayout(model: model)
            let first = Self.recipes("R", using: &random)
            let second = Self.newer(first, round: round, using: &random)
            let third = Self.newer(second, round: round + 1000, using: &random)
            let seeds = try [first, second, third].enumerated().map { index, recipes in
                let path = directory.path("seed\(index + 1).sqlite")
                try KeylessIdentityTests.seed(model, at: path, recipes)
                return path
            }
            let full = try directory.install(seeds[0], as: "full.sqlite", packed: false)
            let packed = try directory.install(seeds[0], as: "packed.sqlite")
            let edits = Self.userEdits(using: &random, round: round)
            for edit in edits {
                try SQLiteShell.execute(edit, on: full)
                try SQLiteShell.execute(edit, on: packed)
            }
            // How many objects the unpacked record knows by their key's check alone.
            let probe = try directory.copy(URL(fileURLWithPath: packed), as: "probe.sqlite")
            try FullRecord.unpack(at: probe)
            resolved += Int(try SQLiteShell.rows(probe, "SELECT COUNT(*) FROM SEEDGEN_SEEDED WHERE substr(KEY, 1, 2) = 'x '")[0]) ?? 0
            for seed in seeds.dropFirst() {
                try Self.updateAlike(full: full, packed: packed, seed: seed, layout: layout, rows: Self.rows, context: "round \(round), \(edits)")
            }
        }
        #expect(resolved > 0, "no object was known by its key's check alone")
    }

    /// Updates the stores `full` and `packed` (installed from one seed with the full and the
    /// packed record, changed alike since) to `seed`, and expects the same reports, the same
    /// `rows` and the same findings of `verify` (none for the packed one).
    static func updateAlike(full: String, packed: String, seed: String, layout: StoreLayout, rows: (String) throws -> [String], context: String) throws {
        let reports = try [full, packed].map { try SeedUpdater(storeAt: $0, seedAt: seed, layout: layout).update() }
        // What is added and changed, named by the new seed, line for line; what is removed
        // or kept, by number: the full record names an object by its seed key, the packed
        // one, where the user changed what names it, as the store holds it now.
        let outcome = reports.map { report in
            [report.added, report.changed].map { $0.map(\.description).sorted() }
                + [[report.removed, report.keptChangedByUser, report.keptDeletedByUser, report.keptUserObject, report.keptLinked, report.notAddedOwnerDeleted].map { "\($0.count)" }]
        }
        #expect(outcome[0] == outcome[1], "\(context): \(reports[0]) against \(reports[1])")
        #expect(try rows(full) == rows(packed), "\(context)")
        let findings = try [full, packed].map { try StoreVerifier(storePath: $0, layout: layout).verify().filter { !$0.isNote }.map { "\($0)" } }
        #expect(findings[1].isEmpty && findings[0] == findings[1], "\(context): \(findings)")
    }

    @Test("a fresh install's packed record unpacks to the full record row for row, in ten bytes an object")
    func unpacksToTheFullRecord() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let model = try StoreFixture.model(KeylessIdentityTests.entities, in: directory)
        let seed = directory.path("seed.sqlite")
        try KeylessIdentityTests.seed(model, at: seed, [("Soup", [("salt", 1), ("salt", 1), ("water", 2)]), ("Stew", [("salt", 1)]), ("Tea", [])])
        let full = try directory.install(seed, as: "full.sqlite", packed: false)
        let packed = try directory.install(seed, as: "packed.sqlite")
        #expect(try SQLiteShell.rows(packed, "SELECT SUM(length(ENTRIES)) FROM SEEDGEN_PACKED") == ["70"])
        #expect(try FullRecord.unpack(at: packed))
        let record = "SELECT ENTITY, PK, KEY, hex(DIGEST) FROM SEEDGEN_SEEDED ORDER BY ENTITY, PK"
        #expect(try SQLiteShell.rows(packed, record) == SQLiteShell.rows(full, record))
        #expect(try SQLiteShell.rows(packed, "SELECT COUNT(*) FROM sqlite_master WHERE name = 'SEEDGEN_PACKED'") == ["0"])
        #expect(try !FullRecord.unpack(at: packed), "unpacked once")
    }

    @Test("a damaged packed record is refused by the update, naming the table and what is wrong, the store's bytes unchanged", arguments: [
        ("UPDATE SEEDGEN_PACKED SET ENTRIES = substr(ENTRIES, 1, 7) WHERE ENTITY = 1", "is not whole entries of 10 bytes"),
        ("INSERT INTO SEEDGEN_PACKED SELECT ENTITY, FIRSTPK + 1, ENTRIES FROM SEEDGEN_PACKED WHERE ENTITY = 1", "is packed twice"),
        ("UPDATE SEEDGEN_PACKED SET ENTITY = 99 WHERE ENTITY = 1", "under entity 99, which the model has not"),
    ])
    func damagedPackedRecord(damage: String, reason: String) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let model = try StoreFixture.model(KeylessIdentityTests.entities, in: directory)
        let seed = directory.path("seed.sqlite"), next = directory.path("seed2.sqlite")
        try KeylessIdentityTests.seed(model, at: seed, [("Soup", [("salt", 1), ("water", 2)]), ("Stew", [("salt", 1)])])
        try KeylessIdentityTests.seed(model, at: next, [("Soup", [("salt", 2)])])
        let store = try directory.install(seed, as: "store.sqlite")
        try SQLiteShell.execute(damage, on: store)
        let before = try Data(contentsOf: URL(fileURLWithPath: store))
        #expect {
            try SeedUpdater(storeAt: store, seedAt: next, layout: try StoreLayout(model: model)).update()
        } throws: { error in
            guard let error = error as? SeedUpdateError, case .damaged = error.reason else { return false }
            return "\(error)".contains("SEEDGEN_PACKED") && "\(error)".contains(reason) && "\(error)".contains("nothing was changed")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: store)) == before)
    }
}
