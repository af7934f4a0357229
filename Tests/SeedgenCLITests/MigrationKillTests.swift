import Foundation
import SeedgenTestSupport
import Testing

/// `seedgen migrate` killed with SIGKILL at random moments: the store is wholly the old version
/// (byte for byte once SQLite rolled the cut-off transaction back) or wholly the new one and
/// verifies clean; the next run completes the migration, and nothing is left beside the store. `make test` kills 5 migrations of a 20,000-row
/// store; `make kill-test` 100 of a 1,000,000-row store (`SEEDGEN_KILLS`, `SEEDGEN_KILL_ROWS`).
@Suite(.serialized) struct MigrationKillTests {
    static let kills = Int(ProcessInfo.processInfo.environment["SEEDGEN_KILLS"] ?? "") ?? 5
    static let rows = Int(ProcessInfo.processInfo.environment["SEEDGEN_KILL_ROWS"] ?? "") ?? 20_000

    /// Persons in clubs of 1,000, each with a nickname: v1 → v3 renames, fills, orders, removes.
    static func seed(rows: Int) -> String {
        var text = "<Seed>\n"
        for club in 0..<max(1, rows / 1_000) {
            text += "<Club name=\"c\(club)\" city=\"x\">"
            for person in 0..<min(rows, 1_000) { text += "<Person name=\"p\(club)_\(person)\" nickname=\"n\(person)\"/>" }
            text += "</Club>\n"
        }
        return text + "<Referee name=\"r\"/></Seed>\n"
    }

    /// How the Persons' seed record goes through the migration.
    enum Record: String, CaseIterable, CustomStringConvertible {
        /// Named by their values, v3's added attribute and rename: kept with a digest rule, their
        /// names made again from their rows when an update settles it.
        case namedByValues
        /// Named by a key (`--key Person=name`): kept with a digest rule.
        case keyed
        /// Named by their values, v3 without `handle`: their values change, so the record is
        /// digested and named again.
        case digestedAgain

        var description: String { rawValue }
        var keys: [String] { self == .keyed ? ["Person=name", "Club=name"] : [] }
        var current: String {
            self == .digestedAgain ? ClubModels.contents(ClubModels.v3Entities(person: """
                <attribute name="name" attributeType="String"/>
                <attribute name="rating" optional="YES" attributeType="Integer 32" defaultValueString="3" usesScalarValueType="YES"/>
                <relationship name="club" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Side" inverseName="members" inverseEntity="Side"/>
                """)) : ClubModels.v3
        }
        /// Whether the migrated store's record has digest rules.
        var ruled: String { self == .digestedAgain ? "0" : "1" }
    }

    @Test(arguments: Record.allCases)
    func killedMigrationsLeaveTheOldOrTheNewVersion(record: Record) throws {
        let (directory, bundle, store) = try MigrateCommandTests.setUp(data: Self.seed(rows: Self.rows), current: record.current, keys: record.keys)
        defer { directory.remove() }
        let original = try Data(contentsOf: URL(fileURLWithPath: store))
        let persons = try SQLiteShell.rows(store, "SELECT COUNT(*) FROM ZPERSON")
        // Kills spread over a little more than one whole migration, timed as the rounds run it:
        // on the original's bytes just written back (their writeback slows the commit's fsync).
        try original.write(to: URL(fileURLWithPath: store))
        let started = Date()
        #expect(try SeedgenTool.run(["migrate", store, "--model", bundle]).status == 0)
        let rules = "SELECT COUNT(*) FROM sqlite_master WHERE name = 'SEEDGEN_DIGESTED'"
        #expect(try SQLiteShell.rows(store, rules) == [record.ruled], "the record kept with a rule, unless Persons' values change")
        // Club (1) becomes Side (2), Person (2) becomes 1: their rows stay under their old numbers.
        let numbers = "SELECT RECORDED, ENTITY FROM SEEDGEN_RENUMBERED ORDER BY RECORDED"
        #expect(try SQLiteShell.rows(store, numbers) == ["1|2", "2|1"])
        let duration = Date().timeIntervalSince(started) * 1.2
        var migrated = 0
        for round in 0..<Self.kills {
            try original.write(to: URL(fileURLWithPath: store))
            try SeedgenTool.kill(["migrate", store, "--model", bundle], after: Double.random(in: 0..<duration))
            // What any writer does first: SQLite rolls a cut-off transaction back (a reader cannot).
            try SQLiteShell.execute("SELECT COUNT(*) FROM sqlite_master", on: store)
            let plan = try SeedgenTool.run(["migrate", store, "--model", bundle, "--dry-run"])
            let wasMigrated = plan.output.contains("the store is at the current version")
            if !wasMigrated {
                #expect(plan.output.contains("from: Club (the store's version hashes)"), "round \(round): \(plan.output)\(plan.error)")
                #expect(try Data(contentsOf: URL(fileURLWithPath: store)) == original, "round \(round): the old version is not byte for byte the original")
            }
            // The next run completes it (or finds it done), and nothing the killed one left survives it.
            let next = try SeedgenTool.run(["migrate", store, "--model", bundle])
            #expect(next.status == 0, "round \(round): \(next.error)")
            if wasMigrated {
                migrated += 1
                #expect(next.output.contains("the store is at the current version"), "round \(round): \(next.output)")
                #expect(try SeedgenTool.run(["verify", store, "--model", bundle + "/Club 3.xcdatamodel"]).status == 0, "round \(round): the migrated store is not clean")
                #expect(try SQLiteShell.rows(store, "SELECT COUNT(*) FROM ZPERSON") == persons)
                #expect(try SQLiteShell.rows(store, rules) == [record.ruled], "round \(round)")
                #expect(try SQLiteShell.rows(store, numbers) == ["1|2", "2|1"], "round \(round)")
            }
            let left = try ClubModels.leftBeside(directory)
            #expect(left == ["v1.sqlite"], "round \(round): left beside the store after the next run: \(left)")
        }
        print("migration kills (\(record)): \(Self.kills) on \(Self.rows) rows, \(migrated) left the new version, \(Self.kills - migrated) the old; one migration \(Int(duration / 1.2 * 1000)) ms")
        if Self.kills >= 50 {
            #expect(migrated > 0 && migrated < Self.kills, "\(Self.kills) kills should leave both versions: the window did not cover the commit")
        }
    }
}
