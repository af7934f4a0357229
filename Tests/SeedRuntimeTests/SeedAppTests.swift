import Foundation
import SeedStore
import SeedgenTestSupport
import Testing

/// The seed apps as a user runs them: output, exit status, and a store that verifies.
@Suite struct SeedAppTests {
    static let seeds = RuntimeFixtures.seeds

    func run(_ program: String, _ arguments: [String]) throws -> SeedgenTool.Result {
        try SeedgenTool.run(program: SeedgenTool.program(named: program), arguments)
    }

    @Test func laptimerListsLapsNewestFirstWithSplits() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let seed = directory.path("LapTimer.sqlite")
        try RuntimeFixtures.build(try RuntimeFixtures.layout("LapTimer"), at: seed)
        let common = ["--data-dir", directory.path("data"), "--seed", seed, "--model", Self.seeds.appendingPathComponent("LapTimer/LapTimer.xcdatamodeld").path]
        for time in ["2026-11-22T10:00:00Z", "2026-11-22T10:01:02.5Z", "2026-11-22T10:02:01.25Z"] {
            #expect(try run("laptimer", ["lap", "--at", time] + common).status == 0)
        }
        let list = try run("laptimer", ["list"] + common)
        #expect(list.output == """
            3  2026-11-22 10:02:01.250  +58.750 s
            2  2026-11-22 10:01:02.500  +62.500 s
            1  2026-11-22 10:00:00.000

            """)
        let bad = try run("laptimer", ["lap", "--at", "yesterday"] + common)
        #expect(bad.status == 64 && bad.error.contains("yesterday"), "\(bad.error)")
        #expect(try StoreVerifier(storePath: directory.path("data/LapTimer.sqlite"), layout: RuntimeFixtures.layout("LapTimer")).verify() == [])
    }

    @Test func locationsAddsListsAndDeletes() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let seed = directory.path("Locations.sqlite")
        try RuntimeFixtures.build(try RuntimeFixtures.layout("Locations"), at: seed, inputs: [Self.seeds.appendingPathComponent("Locations/Events.xml").path])
        let common = ["--data-dir", directory.path("data"), "--seed", seed, "--model", Self.seeds.appendingPathComponent("Locations/Locations.xcdatamodeld").path]
        #expect(try run("locations", ["add", "53.550556", "9.993333", "--at", "2026-11-22T09:00:00Z"] + common).output == "added event 5\n")
        #expect(try run("locations", ["delete", "2"] + common).status == 0)
        let list = try run("locations", ["list", "--limit", "2"] + common)
        #expect(list.output == """
               5  2026-11-22 09:00:00.000   53.550556    9.993333
               4  2012-06-08 16:00:00.000   52.239722   21.045556

            """)
        let missing = try run("locations", ["delete", "2"] + common)
        #expect(missing.status == 1 && missing.error.contains("no Event #2"), "\(missing.error)")
        let outOfRange = try run("locations", ["add", "91", "0"] + common)
        #expect(outOfRange.status == 64 && outOfRange.error.contains("latitude 91"), "\(outOfRange.error)")
        #expect(try StoreVerifier(storePath: directory.path("data/Locations.sqlite"), layout: RuntimeFixtures.layout("Locations")).verify() == [])
    }

    @Test func emplanShowsATeamAndRefusesABadSeed() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let seed = directory.path("EMPlan.sqlite")
        try RuntimeFixtures.emplanSeed(at: seed)
        let common = ["--data-dir", directory.path("data"), "--model", Self.seeds.appendingPathComponent("EMPlan/EMPlan.xcdatamodeld").path]
        let team = try run("emplan", ["team", "italien", "--seed", seed] + common)
        #expect(team.output.hasPrefix("Coach: Cesare Prandelli\nSquad (4):\n"), "\(team.output)")
        #expect(team.error.contains("installed the seed store"))
        let unknown = try run("emplan", ["team", "Atlantis", "--seed", seed] + common)
        #expect(unknown.status == 1 && unknown.error.contains("no team 'Atlantis'"), "\(unknown.error)")
        let bad = try run("emplan", ["--seed", Corpus.packageRoot.appendingPathComponent("README.md").path, "--data-dir", directory.path("other")] + Array(common.suffix(2)))
        #expect(bad.status == 1 && bad.error.contains("not an SQLite database"), "\(bad.error)")
        #expect(RuntimeFixtures.listing(directory.path("other")) == [".EMPlan.sqlite.seedgen-lock"])
    }
}
