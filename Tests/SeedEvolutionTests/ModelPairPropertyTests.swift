import Foundation
import SeedModel
import SeedgenTestSupport
import Testing
@testable import SeedEvolution
import SeedStore

/// The migration over generated model pairs (`ModelPair`: every change kind Core Data infers,
/// alone and combined) and generated stores (objects written as Core Data writes them): the
/// migration either carries every row, value and link as the changes say and leaves a store
/// `verify` finds clean, or refuses with nothing changed; its dry run (`rehearse()`) says the
/// same, to the error's words, and changes no byte; and an engine broken on purpose after
/// a phase (a row, a link or `Z_MAX` lost) is caught by its own check before `COMMIT`, with
/// nothing changed. Each case is made again from its seed (printed on failure).
///
/// `SEEDGEN_PROPERTY_CASES` sets the number of cases (`make property` runs 3,000);
/// `SEEDGEN_PAIR_SEED=<seed>` runs the one case a failure printed, with its two models and store.
@Suite("Migration of generated model pairs")
struct ModelPairPropertyTests {
    static let cases = PropertyCases.count(makeTest: 120)

    /// What a store holds: each entity's values by `Z_PK` and attribute, each relationship's links.
    struct Snapshot: Equatable {
        var values: [String: [Int64: [String: SQLValue]]] = [:]
        var links: [String: Set<[Int64]>] = [:]
    }

    /// How a broken engine loses something after a phase.
    enum Breakage: CaseIterable {
        case row, link, maximum
    }

    @Test("every generated model pair and store: migrated with every row, value and link as the changes say and verify clean, or refused with nothing changed; an engine broken on purpose after a phase is caught before COMMIT")
    func generatedPairs() throws {
        var outcomes: [String: Int] = [:]
        let only = ProcessInfo.processInfo.environment["SEEDGEN_PAIR_SEED"].flatMap { UInt64($0) }
        for index in 0..<(only == nil ? Self.cases : 1) {
            let seed = only ?? UInt64(index) &* 0x9E37_79B9_7F4A_7C15 &+ 1
            let outcome = try check(seed: seed)
            outcomes[outcome, default: 0] += 1
        }
        // The generator reaches both outcomes, and most migrations are also broken on purpose.
        let migrated = outcomes["migrated", default: 0] + outcomes["caught", default: 0]
        #expect(migrated > Self.cases / 2 && outcomes["refused", default: 0] > 0, "\(outcomes)")
        #expect(outcomes["caught", default: 0] > migrated / 2, "\(outcomes)")
    }

    /// One case: returns "refused", "migrated" (and no breakage applied: the store held nothing
    /// of the kind drawn) or "caught" (migrated, and the broken run caught).
    func check(seed: UInt64) throws -> String {
        var random = SplitMix64(seed: seed)
        let pair = ModelPair(random: &random)
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let source = try ModelPair.model(of: pair.source, in: directory)
        let destination = try ModelPair.model(of: pair.destination, in: directory)
        let versions = ModelVersions(versions: [.init(name: "v1", model: source), .init(name: "v2", model: destination)], current: .init(name: "v2", model: destination))
        let path = directory.path("store.sqlite")
        try StoreFixture.build(source, at: path)
        let sourceLayout = try StoreLayout(model: source)
        try Self.fill(path, pair: pair, layout: sourceLayout, random: &random)
        let before = try Self.snapshot(path, layout: sourceLayout)
        let broken = try directory.copy(URL(fileURLWithPath: path), as: "broken.sqlite")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        let context = "seed \(seed): \(pair)"
        if ProcessInfo.processInfo.environment["SEEDGEN_PAIR_SEED"] != nil {
            print(ModelPair.contents(pair.source), pair.source.compactMap(\.composite), "\n----\n",
                  ModelPair.contents(pair.destination), pair.destination.compactMap(\.composite), "\n----\n", before)
        }

        // The dry run (the run, rolled back) says what the run does, and changes nothing.
        var rehearsed: String
        do {
            rehearsed = "migrated \(try StoreMigrator(storeAt: path, versions: versions).rehearse().rowCounts.sorted { $0.key < $1.key })"
        } catch {
            rehearsed = "\(error)"
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == bytes, "\(context): the dry run changed the store")
        do {
            let report = try StoreMigrator(storeAt: path, versions: versions).migrate()
            #expect(rehearsed == "migrated \(report.rowCounts.sorted { $0.key < $1.key })", "\(context): the dry run said \(rehearsed)")
        } catch {
            #expect(rehearsed == "\(error)", "\(context): the dry run said \(rehearsed), the run \(error)")
            switch error.reason {
            case .notCarriedOut, .refused: break
            default: Issue.record("\(context): \(error)")
            }
            #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == bytes, "\(context): a refusal changed the store")
            return "refused"
        }
        let destinationLayout = try StoreLayout(model: destination)
        let findings = try StoreVerifier(storePath: path, layout: destinationLayout).verify().filter { !$0.isNote }
        #expect(findings.isEmpty, "\(context): \(findings)")
        #expect(try Self.snapshot(path, layout: destinationLayout) == Self.expected(before, pair: pair), "\(context)")

        // The same migration, broken on purpose after a phase.
        let breakage = Breakage.allCases.randomElement(using: &random)!
        guard let (phase, sql) = Self.breaking(breakage, before: before, pair: pair, layout: destinationLayout) else { return "migrated" }
        var migrator = StoreMigrator(storeAt: broken, versions: versions)
        migrator.afterPhase = { done, database in
            if done == phase { try database.execute(sql) }
        }
        do {
            _ = try migrator.migrate()
            Issue.record("\(context): \(breakage) lost after \(phase) (\(sql)) and not caught")
        } catch {
            guard case .notConserved = error.reason else { Issue.record("\(context): \(error)"); return "caught" }
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: broken)) == bytes, "\(context): a broken migration changed the store")
        let left = try FileManager.default.contentsOfDirectory(atPath: directory.url.path).filter { $0.hasPrefix("broken") }
        #expect(left == ["broken.sqlite"], "\(context): \(left)")
        return "caught"
    }

    /// Writes 0–5 objects of each entity, their values and links drawn from `random`, as Core
    /// Data's save would (`ObjectWriter`).
    static func fill(_ path: String, pair: ModelPair, layout: StoreLayout, random: inout SplitMix64) throws {
        let connection = try StoreConnection(path: path, layout: layout)
        var objects: [Int: [ObjectID]] = [:]
        try connection.write { writer in
            for entity in pair.source {
                for _ in 0..<Int.random(in: 0...5, using: &random) {
                    var values: [String: SQLValue] = [:]
                    let elements = entity.composite.map { composite in composite.elements.map { ($0, composite.stored($0)) } } ?? []
                    for (attribute, name) in entity.attributes.map({ ($0, $0.name) }) + elements where Int.random(in: 0..<4, using: &random) > 0 {
                        values[name] = switch attribute.type {
                        case "String": .text("s\(Int.random(in: 0...9, using: &random))")
                        case "Double": .real(Double(Int.random(in: -9...9, using: &random)) / 4)
                        case "Boolean": .integer(Int64.random(in: 0...1, using: &random))
                        default: .integer(Int64.random(in: -9...9, using: &random))
                        }
                    }
                    objects[entity.id, default: []].append(try writer.insert(entity.name, values))
                }
            }
            for entity in pair.source {
                for relationship in entity.relationships where !relationship.name.hasSuffix("back") {
                    let targets = objects[relationship.destination] ?? []
                    for object in objects[entity.id] ?? [] where !targets.isEmpty {
                        if relationship.toMany {
                            for target in targets.shuffled(using: &random).prefix(Int.random(in: 0...2, using: &random)) {
                                try writer.add(object, relationship.name, target)
                            }
                        } else if Bool.random(using: &random) {
                            try writer.relate(object, relationship.name, to: targets.randomElement(using: &random)!)
                        }
                    }
                }
            }
        }
    }

    /// Every entity's values and every relationship's links, in `layout`'s names.
    static func snapshot(_ path: String, layout: StoreLayout) throws -> Snapshot {
        let database = try Database(path: path, mode: .readOnly)
        var snapshot = Snapshot()
        for entity in layout.model.entities {
            guard let placed = layout.entity(named: entity.name) else { continue }
            var rows: [Int64: [String: SQLValue]] = [:]
            for row in try database.rows("SELECT Z_PK FROM \(Database.quote(placed.table)) WHERE Z_ENT = \(placed.number)") {
                rows[row[0].integer ?? 0] = [:]
            }
            for attribute in layout.model.storedAttributes(of: entity) {
                guard let column = layout.column(for: attribute.name, of: entity.name) else { continue }
                for row in try database.rows("SELECT Z_PK, \(Database.quote(column)) FROM \(Database.quote(placed.table)) WHERE Z_ENT = \(placed.number)") {
                    rows[row[0].integer ?? 0]?[attribute.name] = row[1]
                }
            }
            snapshot.values[entity.name] = rows
            for relationship in entity.relationships {
                guard let links = SourceLinks(of: relationship.name, of: entity.name, in: layout) else { continue }
                let pairs = try database.rows("SELECT l.\(Database.quote(links.holder)), l.\(Database.quote(links.linked)) \(links.rows)").map { [$0[0].integer ?? 0, $0[1].integer ?? 0] }
                snapshot.links["\(entity.name).\(relationship.name)"] = Set(pairs)
            }
        }
        return snapshot
    }

    /// What the destination must hold of `before`: each carried entity's rows under its new
    /// name, carried attributes' values (a default where one was made required and held none),
    /// added attributes' defaults, carried relationships' links.
    static func expected(_ before: Snapshot, pair: ModelPair) -> Snapshot {
        var expected = Snapshot()
        let sourceNames = Dictionary(uniqueKeysWithValues: pair.source.map { ($0.id, $0.name) })
        for entity in pair.destination {
            guard let origin = entity.source, let rows = before.values[origin] else {
                expected.values[entity.name] = [:]
                for relationship in entity.relationships { expected.links["\(entity.name).\(relationship.name)"] = [] }
                continue
            }
            expected.values[entity.name] = rows.mapValues { old in
                var row: [String: SQLValue] = [:]
                for attribute in entity.attributes {
                    let fill = attribute.defaultValue.map { value -> SQLValue in
                        switch attribute.type {
                        case "String": .text(value)
                        case "Double": .real(Double(value) ?? 0)
                        case "Boolean": .integer(value == "YES" ? 1 : 0)
                        default: .integer(Int64(value) ?? 0)
                        }
                    }
                    guard let previous = attribute.source else { row[attribute.name] = fill ?? .null; continue }
                    let value = old[previous] ?? .null
                    row[attribute.name] = value == .null && !attribute.optional ? fill ?? .null : value
                }
                // A Composite's elements: carried by their source stored names when the
                // Composite is (under its name or renamed), else NULL.
                if let composite = entity.composite {
                    for element in composite.elements {
                        row[composite.stored(element)] = composite.source != nil ? element.source.flatMap { old[$0] } ?? .null : .null
                    }
                }
                return row
            }
            for relationship in entity.relationships {
                let target = pair.destination.first { $0.id == relationship.destination }
                var carried = relationship.source.flatMap { before.links["\(origin).\($0)"] }
                // A new relationship whose inverse is carried holds the inverse's links, seen from this side.
                if relationship.source == nil, let target, let targetOrigin = target.source,
                   let inverse = target.relationships.first(where: { $0.name == relationship.inverse })?.source {
                    carried = before.links["\(targetOrigin).\(inverse)"].map { Set($0.map { [$0[1], $0[0]] }) }
                }
                let targetCarried = target?.source == sourceNames[relationship.destination]
                expected.links["\(entity.name).\(relationship.name)"] = targetCarried ? carried ?? [] : []
            }
        }
        return expected
    }

    /// The phase after which `breakage` loses something the migration must keep, with its SQL;
    /// nil when the store holds nothing of the kind.
    static func breaking(_ breakage: Breakage, before: Snapshot, pair: ModelPair, layout: StoreLayout) -> (MigrationPhase, String)? {
        let carried = pair.destination.filter { entity in entity.source.map { !(before.values[$0]?.isEmpty ?? true) } ?? false }
        switch breakage {
        case .row:
            guard let entity = carried.first, let placed = layout.entity(named: entity.name) else { return nil }
            let table = Database.quote(placed.table)
            return (.copyRows, "DELETE FROM \(table) WHERE Z_PK = (SELECT MAX(Z_PK) FROM \(table) WHERE Z_ENT = \(placed.number))")
        case .maximum:
            guard let entity = carried.first, let placed = layout.entity(named: entity.name) else { return nil }
            return (.rewritePrimaryKeys, "UPDATE Z_PRIMARYKEY SET Z_MAX = 0 WHERE Z_ENT = \(placed.number)")
        case .link:
            let expected = expected(before, pair: pair)
            for entity in pair.destination {
                for relationship in entity.relationships where !(expected.links["\(entity.name).\(relationship.name)"]?.isEmpty ?? true) {
                    guard let links = SourceLinks(of: relationship.name, of: entity.name, in: layout) else { continue }
                    let (table, holder, linked) = (Database.quote(links.table), Database.quote(links.holder), Database.quote(links.linked))
                    let lost = links.holder == "Z_PK" ? "UPDATE \(table) SET \(linked) = NULL WHERE Z_PK = (SELECT MIN(Z_PK) FROM \(table) WHERE \(linked) IS NOT NULL)"
                        : links.linked == "Z_PK" ? "UPDATE \(table) SET \(holder) = NULL WHERE Z_PK = (SELECT MIN(Z_PK) FROM \(table) WHERE \(holder) IS NOT NULL)"
                        : "DELETE FROM \(table) WHERE rowid = (SELECT MIN(rowid) FROM \(table))"
                    return (.clearDanglingReferences, lost)
                }
            }
            return nil
        }
    }
}
