import Foundation
import SeedgenTestSupport
import Testing

@Suite("seedgen fetch and fetch templates")
struct FetchCommandTests {
    struct Object: Decodable {
        var entity: String
        var primaryKey: Int64
        var values: [String: Value]
    }

    enum Value: Decodable, Equatable {
        case null, bool(Bool), number(Double), text(String)
        init(from decoder: Decoder) throws {
            let container = try decoder.singleValueContainer()
            if container.decodeNil() { self = .null }
            else if let flag = try? container.decode(Bool.self) { self = .bool(flag) }
            else if let number = try? container.decode(Double.self) { self = .number(number) }
            else { self = .text(try container.decode(String.self)) }
        }
    }

    static let folder = Corpus.packageRoot.appendingPathComponent("Seeds/EMPlan")
    static let model = folder.appendingPathComponent("EMPlan.xcdatamodeld").path

    /// The EM-Plan seed built into `directory`, and an empty store of the same model.
    static func stores(in directory: TemporaryDirectory) throws -> (seed: String, empty: String) {
        let seed = directory.path("EMPlan.sqlite")
        let built = try SeedgenTool.run(["build", "--model", model, "--output", seed, "--quiet", folder.appendingPathComponent("setup.plist").path])
        #expect(built.status == 0, "\(built.error)")
        let empty = directory.path("Empty.sqlite")
        #expect(try SeedgenTool.run(["build", "--model", model, "--output", empty, "--quiet"]).status == 0)
        return (seed, empty)
    }

    /// The EM-Plan model with its `initialisationCheck` predicate replaced by `predicate` (XML
    /// escaped), written into `directory`, and an empty store built from it.
    static func modelWithTemplate(_ predicate: String, in directory: TemporaryDirectory) throws -> (model: String, store: String) {
        let contents = try String(contentsOfFile: model + "/EMPlan.xcdatamodel/contents", encoding: .utf8)
        let changed = contents.replacingOccurrences(of: "name == &quot;Deutschland&quot;", with: predicate)
        #expect(changed != contents, "the template's predicate text was not found")
        let path = try directory.write(changed, to: "Changed.xcdatamodel/contents")
        let store = directory.path("Changed.sqlite")
        #expect(try SeedgenTool.run(["build", "--model", path, "--output", store, "--quiet"]).status == 0)
        return (path, store)
    }

    static func fetch(_ store: String, _ arguments: [String]) throws -> [Object] {
        let result = try SeedgenTool.run(["fetch", store, "--model", model, "--json"] + arguments)
        #expect(result.status == 0, "\(result.error)")
        return try JSONDecoder().decode([Object].self, from: Data(result.output.utf8))
    }

    @Test("initialisationCheck finds exactly Germany in the seed and nothing in an empty store of the same model")
    func initialisationCheck() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let (seed, empty) = try Self.stores(in: directory)
        let found = try Self.fetch(seed, ["--template", "initialisationCheck"])
        #expect(found.map(\.entity) == ["Team"])
        #expect(found.first?.values["name"] == .text("Deutschland"))
        #expect(found.first?.values["group"] == .text("B"))
        #expect(try Self.fetch(empty, ["--template", "initialisationCheck"]).isEmpty)
    }

    @Test("predicates over the seed: inheritance, to-one paths, ANY, ALL, @count, IN, BETWEEN, LIKE, [cd], variables, sort, limit")
    func predicates() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let (seed, _) = try Self.stores(in: directory)
        func names(_ entity: String, _ predicate: String, _ more: [String] = []) throws -> [String] {
            try Self.fetch(seed, ["--entity", entity, "--predicate", predicate] + more).compactMap {
                if case .text(let name)? = $0.values["name"] { return name }
                return nil
            }
        }
        // Fetching the abstract Human returns coaches and players.
        let humans = try Self.fetch(seed, ["--entity", "Human", "--predicate", "name == 'Löw' OR name == 'Neuer'"])
        #expect(Set(humans.map(\.entity)) == ["Coach", "Player"])
        #expect(try names("Player", "team.name == 'Deutschland'").count == 23)
        #expect(try names("Player", "team.group.name == 'B' AND number == 1", ["--sort", "name"]) == ["Andersen", "Neuer", "Stekelenburg"])
        #expect(try names("Team", "ANY players.club CONTAINS[cd] 'munchen'").contains("Deutschland"))
        #expect(try names("Team", "NONE players.position == 'Tor'").isEmpty == false)
        // ALL fails for a team with a player without a number (Gündoğan): NULL is not a match.
        let all = try names("Team", "ALL players.number BETWEEN {1, 23}")
        let notAll = try names("Team", "NOT (ALL players.number BETWEEN {1, 23})")
        #expect(all.count + notAll.count == 16 && Set(all).isDisjoint(with: notAll))
        #expect(notAll.contains("Deutschland") && all.contains("Spanien"))
        #expect(try names("Team", "players.@count >= 23") == ["Deutschland"])
        #expect(try names("Team", "name IN {'Polen', 'Irland'}", ["--sort", "name:desc"]) == ["Polen", "Irland"])
        #expect(try names("Coach", "name LIKE[c] 'l?w'") == ["Löw"])
        #expect(try names("Team", "name BEGINSWITH $P", ["--var", "P=Deut"]) == ["Deutschland"])
        #expect(try names("Group", "TRUEPREDICATE", ["--sort", "name", "--limit", "2", "--offset", "1"]) == ["B", "C"])
        #expect(try names("Team", "coach.name ENDSWITH 'w' AND NOT (group.name != 'B')") == ["Deutschland"])
    }

    @Test("a bad predicate is exit 1 with its position; an unknown key names the entity; a missing variable names it")
    func badPredicates() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let (seed, _) = try Self.stores(in: directory)
        let cases: [([String], Int32, String)] = [
            (["--entity", "Team", "--predicate", "name == "], 1, "at character 9 of 'name == ': expected a value at the end"),
            (["--entity", "Team", "--predicate", "nmae == 'x'"], 1, "at character 1: Team has no property 'nmae'; did you mean 'name'?"),
            (["--entity", "Team", "--predicate", "players.name == 'x'"], 1, "Team.players is a to-many relationship: use ANY, ALL or NONE"),
            (["--entity", "Team", "--predicate", "name == $NAME"], 1, "no value for $NAME"),
            (["--entity", "Nation", "--predicate", "TRUEPREDICATE"], 1, "the model has no entity 'Nation'"),
            (["--template", "nope"], 2, "no fetch request template 'nope' (it has: initialisationCheck)"),
            (["--entity", "Team", "--predicate", "TRUEPREDICATE", "--template", "initialisationCheck"], 2, "not both"),
        ]
        for (arguments, status, message) in cases {
            let result = try SeedgenTool.run(["fetch", seed, "--model", Self.model] + arguments)
            #expect(result.status == status, "\(arguments): \(result)")
            #expect(result.error.contains(message), "\(arguments): \(result.error)")
        }
    }

    @Test("verify reports a fetch request template that names a property the entity lacks")
    func verifyTemplates() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let (model, store) = try Self.modelWithTemplate("nation == &quot;Deutschland&quot;", in: directory)
        let result = try SeedgenTool.run(["verify", store, "--model", model])
        #expect(result.status == 1)
        #expect(result.output.contains("fetch-template: template 'initialisationCheck'"), "\(result.output)")
        #expect(result.output.contains("Team has no property 'nation'"), "\(result.output)")
    }

    @Test("a template that parses as NSPredicate but uses what fetch cannot run (SUBQUERY) is a note: exit 0; fetch --template says why")
    func unsupportedTemplateIsANote() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let (model, store) = try Self.modelWithTemplate("SUBQUERY(players, $p, $p.name BEGINSWITH &quot;M&quot;).@count &gt; 0", in: directory)
        let result = try SeedgenTool.run(["verify", store, "--model", model])
        #expect(result.status == 0, "\(result)")
        #expect(result.output.contains("note: fetch-template: template 'initialisationCheck'"), "\(result.output)")
        #expect(result.output.contains("SUBQUERY is not supported"), "\(result.output)")
        #expect(result.output.contains("clean (1 note)"), "\(result.output)")
        let fetch = try SeedgenTool.run(["fetch", store, "--model", model, "--template", "initialisationCheck"])
        #expect(fetch.status == 1 && fetch.error.contains("SUBQUERY is not supported"), "\(fetch)")
    }
}
