import Foundation
import SeedgenTestSupport
import Testing

/// `seedgen migrate --dry-run`: a store built at one version of `ClubModels`, planned against
/// the bundle's current version; the store's bytes never change (SeedEvolutionTests' `MigrationApplyTests`:
/// carried out; `RefusalReasonTests`: the same refusals by reason).
@Suite("seedgen migrate")
struct MigrateCommandTests {
    /// A bundle of the three versions (`current` the last) and a store of v1 built from `data`
    /// (with `keys`) and installed by `seedgen install`, so that it records its seed.
    static func setUp(data: String, current: String = ClubModels.v3, keys: [String] = []) throws -> (TemporaryDirectory, bundle: String, store: String) {
        try ClubModels.installedStore(data: data, current: current, keys: keys)
    }

    static let data = """
        <Seed><Club name="Linz" city="Linz"><Person name="Ann" nickname="A"/></Club><Person name="Bob"/><Referee name="R"/></Seed>
        """

    static func bytes(_ path: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path)) }

    @Test("v1 store, v3 current: the plan per entity and property, exit 0, the store unchanged; JSON for tools")
    func planOfAStore() throws {
        let (directory, bundle, store) = try Self.setUp(data: Self.data)
        defer { directory.remove() }
        let before = try Self.bytes(store)
        let result = try SeedgenTool.run(["migrate", store, "--model", bundle, "--dry-run"])
        #expect(result.status == 0, "\(result.error)")
        let lines = result.output.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: #" +"#, with: " ", options: .regularExpression) }
        for expected in ["from: Club (the store's version hashes)", "to: Club 3 (current)", "Side: renamed from Club", "handle renamed from nickname",
                         "founded required now, rows without a value get 1900", "members unordered → ordered", "city removed", "rating added, default 3",
                         "Stadium: added", "Referee: removed (its rows are deleted)", "the migration can be done"] {
            #expect(lines.contains(expected), "\(expected) in:\n\(result.output)")
        }
        let json = try SeedgenTool.run(["migrate", store, "--model", bundle, "--dry-run", "--json"])
        let report = try #require(try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any])
        #expect(json.status == 0 && report["possible"] as? Bool == true && report["from"] as? String == "Club" && report["removedEntities"] as? [String] == ["Referee"])
        #expect(try Self.bytes(store) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path("")).sorted() == ["Club.xcdatamodeld", "Seed.xml", "v1.sqlite"])
    }

    @Test("a plan Core Data allows on a store its check refuses (a table no entity describes): --dry-run says it cannot be done, in text and JSON, exit 1, as the run does")
    func dryRunAgreesWithTheStoreCheck() throws {
        let (directory, bundle, store) = try Self.setUp(data: Self.data)
        defer { directory.remove() }
        try SQLiteShell.execute("CREATE TABLE EXTRA (X)", on: store)
        let before = try Self.bytes(store)
        let text = try SeedgenTool.run(["migrate", store, "--model", bundle, "--dry-run"])
        #expect(text.status == 1 && !text.output.contains("the migration can be done") && text.output.contains("the migration cannot be done on this store:"), "\(text.output)")
        #expect(text.error.contains("EXTRA"), "\(text.error)")
        let json = try SeedgenTool.run(["migrate", store, "--model", bundle, "--dry-run", "--json"])
        let report = try #require(try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any])
        #expect(json.status == 1 && report["possible"] as? Bool == false && (report["error"] as? String)?.contains("EXTRA") == true, "\(json.output)")
        let run = try SeedgenTool.run(["migrate", store, "--model", bundle])
        #expect(run.status == 1 && !run.output.contains("the migration can be done"), "\(run.output)\(run.error)")
        #expect(try Self.bytes(store) == before)
    }

    @Test("a required attribute without a default: refused when the entity has rows (exit 1, named), planned when it has none")
    func requiredWithoutDefault() throws {
        let current = ClubModels.v3RequiredRank
        let (directory, bundle, store) = try Self.setUp(data: Self.data, current: current)
        defer { directory.remove() }
        let before = try Self.bytes(store)
        let refused = try SeedgenTool.run(["migrate", store, "--model", bundle, "--dry-run"])
        #expect(refused.status == 1 && refused.output.contains("Person.rank: a required attribute without a default is added, and Person has rows"), "\(refused.output)")
        #expect(try Self.bytes(store) == before)
        // The same change to a store without Persons can be done.
        let (empty, emptyBundle, emptyStore) = try Self.setUp(data: "<Seed><Club name=\"Linz\"/></Seed>", current: current)
        defer { empty.remove() }
        let planned = try SeedgenTool.run(["migrate", emptyStore, "--model", emptyBundle, "--dry-run"])
        #expect(planned.status == 0 && planned.output.contains("the migration can be done"), "\(planned.output)")
    }

    @Test("optional → required without a default: refused when some row holds no value")
    func madeRequired() throws {
        let current = ClubModels.v3RequiredHandle
        let (directory, bundle, store) = try Self.setUp(data: Self.data, current: current)
        defer { directory.remove() }
        let refused = try SeedgenTool.run(["migrate", store, "--model", bundle, "--dry-run"])
        #expect(refused.status == 1 && refused.output.contains("Person.handle: becomes required without a default, and some Person rows hold no value"), "\(refused.output)")
        let (full, fullBundle, fullStore) = try Self.setUp(data: "<Seed><Person name=\"Ann\" nickname=\"A\"/></Seed>", current: current)
        defer { full.remove() }
        #expect(try SeedgenTool.run(["migrate", fullStore, "--model", fullBundle, "--dry-run"]).status == 0)
    }

    @Test("a new uniqueness constraint: refused naming the values two rows share; planned when the rows are distinct")
    func newUniquenessConstraint() throws {
        let current = ClubModels.v3UniqueSideName
        let (directory, bundle, store) = try Self.setUp(data: "<Seed><Club name=\"Linz\"/><Club name=\"Wels\"/><Club name=\"Linz\"/></Seed>", current: current)
        defer { directory.remove() }
        let before = try Self.bytes(store)
        let refused = try SeedgenTool.run(["migrate", store, "--model", bundle, "--dry-run"])
        #expect(refused.status == 1 && refused.output.contains("Side (name): the uniqueness constraint is new, and rows of the store share name \"Linz\" (2 rows)"), "\(refused.output)")
        #expect(try Self.bytes(store) == before)
        let (distinct, distinctBundle, distinctStore) = try Self.setUp(data: "<Seed><Club name=\"Linz\"/><Club name=\"Wels\"/></Seed>", current: current)
        defer { distinct.remove() }
        #expect(try SeedgenTool.run(["migrate", distinctStore, "--model", distinctBundle, "--dry-run"]).status == 0)
    }

    @Test("a store at the current version: exit 0, nothing to migrate; a store of no version of the bundle: exit 1 naming the entities (the store is wrong for the bundle: the one rule)")
    func currentUnknownAndApply() throws {
        let (directory, bundle, store) = try Self.setUp(data: Self.data)
        defer { directory.remove() }
        let current = directory.path("v3.sqlite")
        #expect(try SeedgenTool.run(["build", "--model", bundle, "--output", current, "--quiet"]).status == 0)
        let same = try SeedgenTool.run(["migrate", current, "--model", bundle, "--dry-run"])
        #expect(same.status == 0 && same.output.contains("the store is at the current version: nothing to migrate"), "\(same.output)")
        // A bundle without v1: the store's Club, Person and Referee hashes match nothing.
        let otherDirectory = try TemporaryDirectory()
        defer { otherDirectory.remove() }
        let other = try ClubModels.writeBundle([("Club 2", ClubModels.v2), ("Club 3", ClubModels.v3)], current: "Club 3", in: otherDirectory)
        let unknown = try SeedgenTool.run(["migrate", store, "--model", other, "--dry-run"])
        #expect(unknown.status == 1 && unknown.error.contains("the hashes of Club, Person, Referee match no version"), "\(unknown.error)")
        let bytes = try Self.bytes(store)
        let apply = try SeedgenTool.run(["migrate", store, "--model", other])
        #expect(apply.status == 1 && apply.error.contains("match no version"), "\(apply.error)")
        #expect(try Self.bytes(store) == bytes)
    }
}
