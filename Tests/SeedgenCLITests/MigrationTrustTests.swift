import Foundation
import SeedgenTestSupport
import Testing

/// `seedgen migrate` never loses what a store holds with exit 0: a reshaped relationship is
/// carried or refused by its typed facts, the result is counted against the store before the
/// commit, what the new version removes is counted in the plan, and the exit statuses follow
/// the one rule. Each test failed before its fix. What the engine carries, refuses (by reason),
/// warns of and counts on the same stores is `RefusalReasonTests`' (SeedEvolutionTests); these
/// hold the command's words, JSON and exit statuses.
@Suite("seedgen migrate: nothing lost")
struct MigrationTrustTests {
    /// A bundle `Club.xcdatamodeld` of ClubModels' v1 and `current`, and a store of v1 built from `data`.
    static func setUp(data: String, current: String) throws -> (TemporaryDirectory, bundle: String, store: String) {
        let directory = try TemporaryDirectory()
        let bundle = try ClubModels.writeBundle([("Club", ClubModels.v1), ("Club 2", current)], current: "Club 2", in: directory)
        let store = directory.path("v1.sqlite")
        let source = try directory.write(data, to: "Seed.xml")
        let build = try SeedgenTool.run(["build", "--model", bundle + "/Club.xcdatamodel", "--output", store, "--quiet", source])
        #expect(build.status == 0, "\(build.error)")
        return (directory, bundle, store)
    }

    static func bytes(_ path: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path)) }

    @Test("the dry run and the report count what the new version removes: an entity's rows, an attribute's values")
    func removalsCounted() throws {
        let (directory, bundle, store) = try MigrateCommandTests.setUp(data: ClubModels.clubsData)
        defer { directory.remove() }
        let dryRun = try SeedgenTool.run(["migrate", store, "--model", bundle, "--dry-run"])
        #expect(dryRun.status == 0, "\(dryRun.output)\(dryRun.error)")
        for line in ["the store loses Referee: 1 row deleted", "the store loses Club.city: 1 value dropped"] {
            #expect(dryRun.output.contains(line), "\(line) in:\n\(dryRun.output)")
        }
        let json = try SeedgenTool.run(["migrate", store, "--model", bundle, "--json"])
        let report = try #require(try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any])
        let removals = try #require(report["removals"] as? [[String: Any]])
        #expect(removals.count == 2 && removals.contains { $0["entity"] as? String == "Referee" && $0["count"] as? Int == 1 }, "\(json.output)")
    }

    @Test("a new uniqueness constraint alone, broken by the rows: the refusal printed with its values, exit 1, JSON not current (was: 'nothing to migrate')")
    func uniquenessAlone() throws {
        let constrained = ClubModels.v1.replacingOccurrences(
            of: #"<relationship name="members" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Person" inverseName="club" inverseEntity="Person"/>"#,
            with: #"<relationship name="members" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Person" inverseName="club" inverseEntity="Person"/><uniquenessConstraints><uniquenessConstraint><constraint value="name"/></uniquenessConstraint></uniquenessConstraints>"#)
        let (directory, bundle, store) = try Self.setUp(data: #"<Seed><Club name="A"/><Club name="A"/></Seed>"#, current: constrained)
        defer { directory.remove() }
        let before = try Self.bytes(store)
        let result = try SeedgenTool.run(["migrate", store, "--model", bundle])
        #expect(result.status == 1 && !result.output.contains("nothing to migrate") && result.output.contains("the uniqueness constraint is new"), "\(result.output)\(result.error)")
        let json = try SeedgenTool.run(["migrate", store, "--model", bundle, "--json"])
        let report = try #require(try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any])
        #expect(json.status == 1 && report["current"] as? Bool == false && report["possible"] as? Bool == false, "\(json.output)")
        #expect(try Self.bytes(store) == before)
    }

    @Test("after a kill left a hot journal, migrate rolls it back and migrates (was: exit 2 forever); a dry run says what to do")
    func hotJournal() throws {
        let (directory, bundle, store) = try MigrateCommandTests.setUp(data: ClubModels.clubsData)
        defer { directory.remove() }
        try SQLiteShell.interruptWrite("UPDATE ZPERSON SET ZNAME = 'half' WHERE ZNAME = 'Ann'", on: store)
        #expect(FileManager.default.fileExists(atPath: store + "-journal"))
        // A dry run only reads: it cannot roll the write back, and says what will.
        let before = try Self.bytes(store)
        let dryRun = try SeedgenTool.run(["migrate", store, "--model", bundle, "--dry-run"])
        #expect(dryRun.status == 2 && dryRun.error.contains("seedgen migrate"), "\(dryRun.output)\(dryRun.error)")
        #expect(try Self.bytes(store) == before && FileManager.default.fileExists(atPath: store + "-journal"))
        let result = try SeedgenTool.run(["migrate", store, "--model", bundle])
        #expect(result.status == 0 && result.output.contains("migrated: 6 rows carried over"), "\(result.output)\(result.error)")
        #expect(!FileManager.default.fileExists(atPath: store + "-journal"))
    }

    @Test("exit statuses by the one rule: a version the bundle lacks is 1 (was 2), an option given twice is 2 (was: the last one used)")
    func exitStatuses() throws {
        let (directory, bundle, store) = try MigrateCommandTests.setUp(data: ClubModels.clubsData)
        defer { directory.remove() }
        let other = try ClubModels.writeBundle([("Club 3", ClubModels.v2), ("Club 4", ClubModels.v3)], current: "Club 4", in: try TemporaryDirectory())
        let unknown = try SeedgenTool.run(["migrate", store, "--model", other])
        #expect(unknown.status == 1 && unknown.error.contains("a model version the bundle does not hold"), "\(unknown.error)")
        for command in [["migrate", store], ["update", store, "--seed", store], ["diff", store, store]] {
            let twice = try SeedgenTool.run(command + ["--model", bundle, "--model", other])
            #expect(twice.status == 2 && twice.error.contains("--model is given twice"), "\(command[0]): \(twice.error)")
        }
    }

    /// Three versions of one entity, each naming the previous version's property by its name:
    /// v2's `alias` has the identifier `nickname` (v1's name), v3's `handle` the identifier `alias`.
    static let chained = [
        ("Club", ClubModels.v1),
        ("Club 2", ClubModels.v1.replacingOccurrences(of: #"<attribute name="nickname" optional="YES" attributeType="String"/>"#,
                                                      with: #"<attribute name="alias" optional="YES" attributeType="String" elementID="nickname"/>"#)),
        ("Club 3", ClubModels.v1.replacingOccurrences(of: #"<attribute name="nickname" optional="YES" attributeType="String"/>"#,
                                                      with: #"<attribute name="handle" optional="YES" attributeType="String" elementID="alias"/>"#)),
    ]

    @Test("a renaming identifier that names the source property whose own identifier differs: not carried, as Core Data matches identifiers; warned, exit 0 (was: carried by name)")
    func identifierNamingAName() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let bundle = try ClubModels.writeBundle(Self.chained, current: "Club 3", in: directory)
        let store = directory.path("v2.sqlite")
        let build = try SeedgenTool.run(["build", "--model", bundle + "/Club 2.xcdatamodel", "--output", store, "--quiet",
                                         try directory.write(#"<Seed><Person name="Ann" alias="A"/><Person name="Bob"/></Seed>"#, to: "Seed.xml")])
        #expect(build.status == 0, "\(build.error)")
        let dryRun = try SeedgenTool.run(["migrate", store, "--model", bundle, "--dry-run"])
        #expect(dryRun.status == 0 && dryRun.output.contains("the store loses Person.alias: 1 value dropped"), "\(dryRun.output)")
        #expect(dryRun.error.contains("seedgen: warning: Person.handle: its renaming identifier alias is the name of Person.alias, whose own identifier is nickname"), "\(dryRun.error)")
        let result = try SeedgenTool.run(["migrate", store, "--model", bundle])
        #expect(result.status == 0 && result.error.contains("warning: Person.handle"), "\(result.output)\(result.error)")
        // v1 → v2 shares the identifier nickname (unset on v1: its name): carried, no warning.
        let v1 = directory.path("v1.sqlite")
        #expect(try SeedgenTool.run(["build", "--model", bundle + "/Club.xcdatamodel", "--output", v1, "--quiet",
                                     try directory.write(#"<Seed><Person name="Ann" nickname="A"/></Seed>"#, to: "Seed1.xml")]).status == 0)
        _ = try ClubModels.writeBundle(Array(Self.chained.prefix(2)), current: "Club 2", in: directory)
        let carried = try SeedgenTool.run(["migrate", v1, "--model", bundle])
        #expect(carried.status == 0 && !carried.error.contains("warning"), "\(carried.output)\(carried.error)")
    }

    @Test("an attribute holding values removed beside one of the same type added: warned as a rename without a renaming identifier, exit 0")
    func lookalikeRename() throws {
        let renamed = ClubModels.v1.replacingOccurrences(of: #"<attribute name="nickname" optional="YES" attributeType="String"/>"#,
                                                         with: #"<attribute name="handle" optional="YES" attributeType="String"/>"#)
        let (directory, bundle, store) = try Self.setUp(data: #"<Seed><Person name="Ann" nickname="A"/></Seed>"#, current: renamed)
        defer { directory.remove() }
        let result = try SeedgenTool.run(["migrate", store, "--model", bundle])
        #expect(result.status == 0 && result.error.contains("seedgen: warning: Person.handle: is added as Person.nickname (String, 1 value in the store) is removed"),
                "\(result.output)\(result.error)")
        #expect(result.output.contains("the store loses Person.nickname: 1 value dropped"), "\(result.output)")
    }

    @Test("the lookalike-rename warning's words name the identifier Core Data matches (the removed attribute's own, legacy), exit 0 (it named nickname, which drops the values; following it is the engine's test)",
          arguments: [#"elementID="legacy""#, ""])
    func lookalikeAdviceWords(_ identifier: String) throws {
        let v1 = ClubModels.v1.replacingOccurrences(of: #"<attribute name="nickname" optional="YES" attributeType="String"/>"#,
                                                   with: #"<attribute name="nickname" optional="YES" attributeType="String" \#(identifier)/>"#)
        let renamed = ClubModels.v1.replacingOccurrences(of: #"<attribute name="nickname" optional="YES" attributeType="String"/>"#,
                                                         with: #"<attribute name="handle" optional="YES" attributeType="String"/>"#)
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let bundle = try ClubModels.writeBundle([("Club", v1), ("Club 2", renamed)], current: "Club 2", in: directory)
        let store = directory.path("v1.sqlite")
        let build = try SeedgenTool.run(["build", "--model", bundle + "/Club.xcdatamodel", "--output", store, "--quiet",
                                         try directory.write(#"<Seed><Person name="Ann" nickname="A"/></Seed>"#, to: "Seed.xml")])
        #expect(build.status == 0, "\(build.error)")
        let dryRun = try SeedgenTool.run(["migrate", store, "--model", bundle, "--dry-run"])
        let expected = identifier.isEmpty ? "give handle the renaming identifier nickname, or the values are dropped"
            : "give handle the renaming identifier legacy (nickname's own renaming identifier, which Core Data matches), or the values are dropped"
        #expect(dryRun.status == 0 && dryRun.error.contains("seedgen: warning: Person.handle: ") && dryRun.error.contains(expected), "\(dryRun.error)")
        // For tools, the JSON carries the advised identifier apart from the words.
        let json = try SeedgenTool.run(["migrate", store, "--model", bundle, "--dry-run", "--json"])
        let report = try #require(try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any])
        let warnings = try #require(report["warnings"] as? [[String: Any]])
        #expect(warnings.map { $0["identifier"] as? String } == [identifier.isEmpty ? "nickname" : "legacy"], "\(json.output)")
    }
}
