import Foundation
import SeedModel
import SeedgenTestSupport
import Testing
@testable import SeedEvolution
import SeedStore

/// `Carriage`, decided from two models alone, no store: where a destination column takes its
/// values from for each kind of change, and which tables stay as they are.
@Suite("Carriage: every carrying decision, from the models alone")
struct CarriageTests {
    static let model = """
        <entity name="Club">
            <attribute name="name" optional="YES" attributeType="String"/>
            <relationship name="members" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Person" inverseName="club" inverseEntity="Person"/>
        </entity>
        <entity name="Person">
            <attribute name="age" optional="YES" attributeType="Integer 32"/>
            <attribute name="name" optional="YES" attributeType="String"/>
            <relationship name="club" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Club" inverseName="members" inverseEntity="Club"/>
        </entity>
        """

    static func changed(_ old: String, _ new: String) -> String { model.replacingOccurrences(of: old, with: new) }

    static let age = #"<attribute name="age" optional="YES" attributeType="Integer 32"/>"#
    static let members = #"<relationship name="members" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Person" inverseName="club" inverseEntity="Person"/>"#
    static let toOne = #"<relationship name="club" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Club" inverseName="members" inverseEntity="Club"/>"#

    /// Each case: what v2 changes, the destination column looked at (entity, column) and where
    /// its values come from; and whether Person's table is kept as it is.
    static let cases: [(String, String, (entity: String, column: String), ColumnSource, Bool)] = [
        ("nothing", model, ("Person", "ZAGE"), .column("ZAGE"), true),
        ("an attribute added with a default", changed(age, age + #"<attribute name="rank" optional="YES" attributeType="Integer 32" defaultValueString="7"/>"#),
         ("Person", "ZRANK"), .defaultValue(.integer(7)), false),
        ("an attribute added without one", changed(age, age + #"<attribute name="rank" optional="YES" attributeType="Integer 32"/>"#),
         ("Person", "ZRANK"), .none, false),
        ("an attribute renamed by its identifier", changed(age, #"<attribute name="years" optional="YES" attributeType="Integer 32" elementID="age"/>"#),
         ("Person", "ZYEARS"), .column("ZAGE"), false),
        ("an attribute made required with a default", changed(age, #"<attribute name="age" attributeType="Integer 32" defaultValueString="18"/>"#),
         ("Person", "ZAGE"), .columnOrDefault("ZAGE", .integer(18)), false),
        ("an attribute removed: the others kept", changed(age, ""), ("Person", "ZNAME"), .column("ZNAME"), false),
        ("a to-one kept", model, ("Person", "ZCLUB"), .column("ZCLUB"), true),
    ]

    static func carriage(_ v2: String, from source: String = model, in directory: TemporaryDirectory) throws -> Carriage {
        let v1 = try StoreFixture.model(source, in: directory), model2 = try StoreFixture.model(v2, in: directory)
        let plan = MigrationPlan(from: .init(name: "v1", model: v1), to: .init(name: "v2", model: model2))
        return try Carriage(plan: plan, source: try StoreLayout(model: v1), destination: try StoreLayout(model: model2), path: "store.sqlite")
    }

    @Test("each change's column source, and whether the table is kept as it is", arguments: cases)
    func columnSources(_ change: String, _ v2: String, _ place: (entity: String, column: String), _ expected: ColumnSource, _ kept: Bool) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let carriage = try Self.carriage(v2, in: directory)
        let found = carriage.columns[Carriage.Place(entity: place.entity, column: place.column)]
        #expect(found == expected, "\(change): \(String(describing: found))")
        #expect(carriage.keptTables.contains("ZPERSON") == kept, "\(change): kept \(carriage.keptTables)")
    }

    @Test("a to-many made a to-one takes each object's only link; an added to-one beside a kept inverse to-many takes its links from it")
    func linksFromTheOtherSide() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        // Club.members made a to-one: Club gains a column holding its only member.
        let toOne = try Self.carriage(Self.changed(Self.members, #"<relationship name="members" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Person" inverseName="club" inverseEntity="Person"/>"#)
            .replacingOccurrences(of: Self.toOne, with: #"<relationship name="club" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Club" inverseName="members" inverseEntity="Club"/>"#), in: directory)
        guard case .linkedKey(.onlyLink(let links))? = toOne.columns[Carriage.Place(entity: "Club", column: "ZMEMBERS")] else {
            Issue.record("\(String(describing: toOne.columns[Carriage.Place(entity: "Club", column: "ZMEMBERS")]))")
            return
        }
        #expect(links.holder == "ZCLUB" && links.linked == "Z_PK")
        // Person.club replaced by a new to-one `team`, Club.members kept and pointing at it.
        let replaced = try Self.carriage(Self.changed(Self.toOne, #"<relationship name="team" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Club" inverseName="members" inverseEntity="Club"/>"#)
            .replacingOccurrences(of: #"inverseName="club" inverseEntity="Person""#, with: #"inverseName="team" inverseEntity="Person""#), in: directory)
        guard case .linkedKey(.inverse(let inverse))? = replaced.columns[Carriage.Place(entity: "Person", column: "ZTEAM")] else {
            Issue.record("\(String(describing: replaced.columns[Carriage.Place(entity: "Person", column: "ZTEAM")]))")
            return
        }
        #expect(inverse.holder == "ZCLUB" && inverse.linked == "Z_PK")
    }

    /// Each case: what v2 changes; each join table that takes links, with its columns and the
    /// source columns they take; each list numbered where a to-many becomes ordered; each
    /// reference cleared where it may dangle and each join table thinned.
    static let linkCases: [(String, String, [String], [String], [String])] = [
        ("nothing", model, [], [], []),
        ("Club.members made ordered: Person's rows hold their places", changed(#"toMany="YES" deletionRule"#, #"toMany="YES" ordered="YES" deletionRule"#),
         [], ["ZPERSON: ZCLUB, Z_PK, Z_FOK_CLUB"], []),
        ("Person.club made a to-many: a join table takes the links Person's column held", changed(toOne, #"<relationship name="club" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Club" inverseName="members" inverseEntity="Club"/>"#),
         ["Z_1MEMBERS (Z_1CLUB, Z_2MEMBERS) from _seedgen_migrating_ZPERSON (ZCLUB, Z_PK)"], [], []),
    ]

    @Test("each change's join tables, newly ordered lists and references that may dangle, decided from the models alone", arguments: linkCases)
    func linkDecisions(_ change: String, _ v2: String, _ joins: [String], _ ordered: [String], _ cleared: [String]) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let carriage = try Self.carriage(v2, in: directory)
        let foundJoins = carriage.joinTables.sorted { $0.key < $1.key }.map { name, join in
            "\(name) (\(join.columns.joined(separator: ", "))) from \(join.links.table) (\(join.sourceColumns.joined(separator: ", ")))"
        }
        #expect(foundJoins == joins, "\(change)")
        #expect(carriage.newlyOrdered.map { "\($0.table): \($0.holder), \($0.member), \($0.position)" } == ordered, "\(change)")
        #expect(carriage.clearedReferences.map { "\($0.table).\($0.key) → \($0.target)" } + carriage.thinnedJoins.map(\.table) == cleared, "\(change)")
    }

    @Test("a sub-entity removed from a table: the references into it are cleared where they dangle, the others not")
    func thinnedTable() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let guild = #"<entity name="Guild" parentEntity="Club"><attribute name="motto" optional="YES" attributeType="String"/></entity>"#
        let thinned = try Self.carriage(Self.model, from: Self.model + guild, in: directory)
        #expect(thinned.thinnedTables == ["ZCLUB"])
        #expect(thinned.clearedReferences == [Carriage.ClearedReference(table: "ZPERSON", key: "ZCLUB", companions: [], target: "ZCLUB")])
        #expect(thinned.thinnedJoins.isEmpty)
        let kept = try Self.carriage(Self.model + guild, from: Self.model + guild, in: directory)
        #expect(kept.thinnedTables.isEmpty && kept.clearedReferences.isEmpty)
    }

    @Test("a rebuilt table's indexes that a source index may hand over, by the source's column names; none for a kept table or a column whose values come from elsewhere")
    func adoptableIndexes() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        func adoptable(_ v2: String) throws -> [String] {
            try Self.carriage(v2, in: directory).adoptableIndexes.values.map { index in
                "\(index.index.name) from \(index.aside) (\(index.columns.map(\.name).joined(separator: ", ")))\(index.isUnique ? " unique" : "")"
            }.sorted()
        }
        #expect(try adoptable(Self.model) == [], "a kept table keeps its indexes")
        let rank = Self.changed(Self.age, Self.age + #"<attribute name="rank" optional="YES" attributeType="Integer 32" defaultValueString="7"/>"#)
        #expect(try adoptable(rank) == ["ZPERSON_ZCLUB_INDEX from _seedgen_migrating_ZPERSON (ZCLUB)"])
        let renamed = rank.replacingOccurrences(of: #"<entity name="Person">"#, with: #"<entity name="Member" elementID="Person">"#)
            .replacingOccurrences(of: #"destinationEntity="Person""#, with: #"destinationEntity="Member""#)
            .replacingOccurrences(of: #"inverseEntity="Person""#, with: #"inverseEntity="Member""#)
        #expect(try adoptable(renamed) == ["ZMEMBER_ZCLUB_INDEX from _seedgen_migrating_ZPERSON (ZCLUB)"])
        // Person.club's column taken from another relationship's: its values change, no index is handed over.
        let team = rank.replacingOccurrences(of: Self.toOne, with: #"<relationship name="team" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Club" inverseName="members" inverseEntity="Club"/>"#)
            .replacingOccurrences(of: #"inverseName="club" inverseEntity="Person""#, with: #"inverseName="team" inverseEntity="Person""#)
        #expect(try adoptable(team) == [])
    }
}
