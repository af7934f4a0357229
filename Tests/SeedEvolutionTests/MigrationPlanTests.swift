import SeedModel
import SeedModelLoader
@testable import SeedEvolution
import SeedStore
import SeedgenTestSupport
import Testing

/// The plan of a lightweight migration, from two models alone (`ClubModels`): what Core Data's
/// inferred mapping carries over, and what it refuses.
@Suite("Migration plan")
struct MigrationPlanTests {
    static func version(_ name: String, _ contents: String) throws -> ModelVersions.Version {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        return ModelVersions.Version(name: name, model: try ModelLoader.load(from: try directory.write(contents, to: "\(name).xcdatamodel/contents")))
    }

    /// "Entity.property: words" for every property, "Entity: from" for every entity.
    static func summary(_ plan: MigrationPlan) -> [String] {
        plan.entities.flatMap { entity in
            ["\(entity.name) ← \(entity.source ?? "-")"] + entity.properties.map { "\(entity.name).\($0.name) ← \($0.source ?? "-"): \($0.change)" }
        } + plan.removedEntities.map { "removed \($0)" }
    }

    @Test("v1 → v3 through a chain of renames: entities and attributes matched by renaming identifier; added, removed, filled, reshaped")
    func chainOfRenames() throws {
        let plan = MigrationPlan(from: try Self.version("v1", ClubModels.v1), to: try Self.version("v3", ClubModels.v3))
        #expect(plan.isPossible && plan.refusals.isEmpty && !plan.changesNothing)
        #expect(Self.summary(plan) == [
            "Person ← Person",
            "Person.handle ← nickname: kept",
            "Person.name ← name: kept",
            "Person.rating ← -: added(defaultValue: Optional(\"3\"))",
            "Person.club ← club: kept",
            "Side ← Club",
            "Side.area ← -: added(defaultValue: nil)",
            "Side.founded ← founded: \(MigrationPlan.Change.reshaped(.init(optionality: .required(default: "1900"))))",
            "Side.name ← name: kept",
            "Side.members ← members: \(MigrationPlan.Change.reshaped(.init(ordering: .ordered)))",
            "Side.city ← city: removed",
            "Stadium ← -",
            "Stadium.name ← -: added(defaultValue: nil)",
            "removed Referee",
        ])
        // v2 → v3 finds the same elements by the same canonical names.
        let second = MigrationPlan(from: try Self.version("v2", ClubModels.v2), to: try Self.version("v3", ClubModels.v3))
        #expect(second.isPossible)
        #expect(Self.summary(second).contains("Person.handle ← alias: kept") && Self.summary(second).contains("Side ← Team"))
    }

    @Test("a to-many made a required to-one carries both typed facts, cardinality and optionality (was: one text overwriting the other, so neither check ran)")
    func factsCombine() throws {
        let current = ClubModels.v1.replacingOccurrences(of: #"<relationship name="members" optional="YES" toMany="YES""#, with: #"<relationship name="members" maxCount="1""#)
        let plan = MigrationPlan(from: try Self.version("v1", ClubModels.v1), to: try Self.version("v2", current))
        let members = try #require(plan.entities.first { $0.name == "Club" }?.properties.first { $0.name == "members" })
        #expect(members.change == .reshaped(.init(cardinality: .toOne, optionality: .required(default: nil))))
        #expect(members.change.filledDefault == nil)
        // Required without a default: the store's rows decide (every club must hold a link).
        #expect(plan.requirements.contains { $0.sourceEntity == "Club" && $0.refusal.subject == "Club.members" })
    }

    @Test("a version to itself changes nothing")
    func sameVersion() throws {
        let plan = MigrationPlan(from: try Self.version("v3", ClubModels.v3), to: try Self.version("v3", ClubModels.v3))
        #expect(plan.changesNothing && plan.isPossible)
    }

    /// v3 variants Core Data would not infer from v1, with the reason and subject each gives.
    static let refused: [String: (person: String?, side: String?, reason: MigrationPlan.Refusal.Reason, subject: String)] = [
        "a type change": ("""
            <attribute name="handle" optional="YES" attributeType="Integer 64" elementID="nickname"/>
            <attribute name="name" attributeType="String"/>
            <relationship name="club" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Side" inverseName="members" inverseEntity="Side"/>
            """, nil, .typeChanged, "Person.handle"),
        "an attribute become a relationship": ("""
            <attribute name="name" attributeType="String"/>
            <relationship name="nickname" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Stadium"/>
            <relationship name="club" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Side" inverseName="members" inverseEntity="Side"/>
            """, nil, .kindChanged, "Person.nickname"),
        "two properties taking one": ("""
            <attribute name="handle" optional="YES" attributeType="String" elementID="nickname"/>
            <attribute name="nickname" optional="YES" attributeType="String"/>
            <attribute name="name" attributeType="String"/>
            <relationship name="club" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Side" inverseName="members" inverseEntity="Side"/>
            """, nil, .ambiguousRenaming, "Person.nickname"),
        "a relationship pointed elsewhere": ("""
            <attribute name="name" attributeType="String"/>
            <relationship name="club" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Stadium"/>
            """, """
            <attribute name="name" attributeType="String"/>
            """, .destinationChanged, "Person.club"),
    ]

    @Test("refused: a type change, an attribute become a relationship, two properties taking one, a relationship pointed at an entity that takes nothing over",
          arguments: ["a type change", "an attribute become a relationship", "two properties taking one", "a relationship pointed elsewhere"])
    func refusals(_ name: String) throws {
        let variant = try #require(Self.refused[name])
        let plan = MigrationPlan(from: try Self.version("v1", ClubModels.v1),
                                 to: try Self.version("v3", ClubModels.contents(ClubModels.v3Entities(person: variant.person, side: variant.side))))
        #expect(!plan.isPossible)
        #expect(plan.refusals.map(\.reason) == [variant.reason] && plan.refusals.first?.subject == variant.subject, "\(plan.refusals)")
    }

    @Test("refused: two entities taking over one (the same renaming identifier)")
    func twoEntitiesTakingOne() throws {
        let squad = #"<entity name="Squad" elementID="Club"><attribute name="name" attributeType="String"/></entity>"#
        let plan = MigrationPlan(from: try Self.version("v1", ClubModels.v1),
                                 to: try Self.version("v3", ClubModels.contents(ClubModels.v3Entities() + squad)))
        #expect(plan.refusals.map(\.reason) == [.ambiguousRenaming] && plan.refusals.first?.subject == "Squad", "\(plan.refusals)")
        #expect(plan.refusals.first?.message.contains("takes over Club as Side does") == true, "\(plan.refusals)")
    }

    @Test("refused: entities of two source hierarchies in one destination hierarchy")
    func mergedHierarchies() throws {
        // Person (a root in v1) under Side (v1's Club, another root), its name inherited.
        let merged = ClubModels.contents(ClubModels.v3Entities(person: """
                <attribute name="handle" optional="YES" attributeType="String" elementID="nickname"/>
                <relationship name="club" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Side" inverseName="members" inverseEntity="Side"/>
            """)).replacingOccurrences(of: "<entity name=\"Person\">", with: "<entity name=\"Person\" parentEntity=\"Side\">")
        let plan = MigrationPlan(from: try Self.version("v1", ClubModels.v1), to: try Self.version("v3", merged))
        #expect(plan.refusals.map(\.reason) == [.mergedHierarchies] && plan.refusals.first?.subject == "Side", "\(plan.refusals)")
        // A new parent is no merge: Club's hierarchy gains a root the migration adds.
        let parent = ClubModels.v3
            .replacingOccurrences(of: "<entity name=\"Side\" elementID=\"Club\">", with: "<entity name=\"Side\" elementID=\"Club\" parentEntity=\"Place\">")
            .replacingOccurrences(of: "<entity name=\"Stadium\">", with: "<entity name=\"Place\"/><entity name=\"Stadium\">")
        #expect(MigrationPlan(from: try Self.version("v1", ClubModels.v1), to: try Self.version("v3", parent)).isPossible)
    }

    @Test("the store's version is the one whose entity hashes it holds; the current one is .xccurrentversion's")
    func versionsOfABundle() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let bundle = try ClubModels.writeBundle([("Club", ClubModels.v1), ("Club 2", ClubModels.v2), ("Club 3", ClubModels.v3)], current: "Club 3", in: directory)
        let versions = try ModelLoader.loadVersions(from: bundle)
        #expect(versions.versions.map(\.name) == ["Club", "Club 2", "Club 3"] && versions.current.name == "Club 3")
        let v2 = ModelIdentity(model: versions.versions[1].model).entityVersionHashes
        #expect(versions.versions(matching: v2).map(\.name) == ["Club 2"])
        var damaged = v2
        damaged["Person"] = [UInt8](repeating: 0, count: 32)
        #expect(versions.versions(matching: damaged).isEmpty)
    }
}
