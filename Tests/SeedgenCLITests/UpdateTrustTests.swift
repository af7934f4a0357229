import Foundation
import SeedgenTestSupport
import Testing

/// `seedgen update` never drops what the user holds: a seed of an unrelated model is refused,
/// a store without its record is refused before anything is migrated, and what a model change
/// removes is counted in the report. Each test failed before its fix. The engine's reasons and
/// reports for the same stores are `RefusalReasonTests`' (SeedEvolutionTests); these hold the
/// command's words, JSON and exit statuses.
@Suite("seedgen update: nothing lost")
struct UpdateTrustTests {
    typealias Build = DiffCommandTests

    static func bytes(_ path: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path)) }

    @Test("a seed built from an unrelated model, without --model: refused, exit 1, the store's bytes unchanged (was: every entity dropped, exit 0)")
    func unrelatedSeed() throws {
        let directory = try Build.setUp()
        defer { directory.remove() }
        let seed1 = try Build.build(Build.v1, as: "v1", in: directory)
        let store = try UpdateCommandTests.install(seed1, in: directory)
        let other = try Build.storeOfAnotherModel(in: directory)
        let before = try Self.bytes(store)
        let result = try SeedgenTool.run(["update", store, "--seed", other])
        #expect(result.status == 1 && result.error.contains("not a later version of the store's"), "\(result.output)\(result.error)")
        #expect(try Self.bytes(store) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path("")).filter { $0.hasSuffix("-journal") }.isEmpty)
    }

    @Test("a store whose record was removed, with a model change: refused before the migration, the bytes unchanged (was: migrated, then exit 1 'nothing was changed')")
    func noRecordBeforeMigrating() throws {
        let directory = try Build.setUp()
        defer { directory.remove() }
        let seed1 = try Build.build(Build.v1, as: "v1", in: directory)
        let (bundle, seed2) = try ShelfModel.bundleWithoutPrices(in: directory)
        let store = try UpdateCommandTests.install(seed1, in: directory)
        try SQLiteShell.execute("DROP TABLE SEEDGEN_PACKED", on: store)
        let before = try Self.bytes(store)
        for model in [[], ["--model", bundle]] {
            let result = try SeedgenTool.run(["update", store, "--seed", seed2] + model)
            #expect(result.status == 1 && result.error.contains("carries no record of the seed it was installed from"), "\(result.output)\(result.error)")
            #expect(try Self.bytes(store) == before)
        }
    }

    @Test("what the model change removes is counted in the report: the prices the store held")
    func removalsReported() throws {
        let directory = try Build.setUp()
        defer { directory.remove() }
        let seed1 = try Build.build(Build.v1, as: "v1", in: directory)
        let (bundle, seed2) = try ShelfModel.bundleWithoutPrices(in: directory)
        let store = try UpdateCommandTests.install(seed1, in: directory)
        let result = try SeedgenTool.run(["update", store, "--seed", seed2, "--model", bundle])
        #expect(result.status == 0 && result.output.contains("the store loses Book.price: 3 values dropped"), "\(result.output)\(result.error)")
        let json = try SeedgenTool.run(["update", try UpdateCommandTests.install(seed1, as: "again.sqlite", in: directory), "--seed", seed2, "--model", bundle, "--json"])
        let report = try #require(try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any])
        let removals = try #require(report["migrationRemovals"] as? [[String: Any]])
        #expect(removals.count == 1 && removals[0]["property"] as? String == "price" && removals[0]["count"] as? Int == 3, "\(json.output)")
    }

    @Test("two objects recorded under one key: refused naming the record's objects and the two Z_PKs, exit 1 (the record does not add up), the bytes unchanged (was: SQLite's constraint error on a TEMP table)")
    func duplicateRecordedKey() throws {
        let directory = try Build.setUp()
        defer { directory.remove() }
        let seed1 = try Build.build(Build.v1, as: "v1", in: directory)
        let seed2 = try Build.build(UpdateCommandTests.v2, as: "v2", in: directory)
        let store = try UpdateCommandTests.install(seed1, in: directory)
        try FullRecord.unpack(at: store)
        try SQLiteShell.execute("""
            UPDATE SEEDGEN_SEEDED SET KEY = (SELECT KEY FROM SEEDGEN_SEEDED WHERE ENTITY = 2 AND PK = 1) WHERE ENTITY = 2 AND PK = 2
            """, on: store)
        let before = try Self.bytes(store)
        let result = try UpdateCommandTests.update(store, to: seed2, directory)
        #expect(result.status == 1 && result.error.contains("the seed record's objects (SEEDGEN_SEEDED): two Book objects (Z_PK 1 and 2) are recorded under one key; nothing was changed"),
                "\(result.output)\(result.error)")
        #expect(!result.error.contains("seedgen_recorded"))
        #expect(try Self.bytes(store) == before)
    }
}
