import Foundation
import SeedgenTestSupport
import Testing
@testable import SeedEvolution

/// Migrations that change a hierarchy — a property moved up, an entity moved out of it, a
/// sub-entity removed (references into rows that left the table they point into become nil) —
/// or a relationship's shape: a to-one made to-many, its links and positions kept.
@Suite("Migration of hierarchies and shapes")
struct MigrationHierarchyTests {
    static func model(_ entities: String) -> String { ClubModels.contents(entities) }

    static let owner = """
        <entity name="Owner">
            <attribute name="name" attributeType="String"/>
            <relationship name="pets" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Animal" inverseName="owner" inverseEntity="Animal"/>
        </entity>
        <entity name="Person">
            <attribute name="name" attributeType="String"/>
            <relationship name="favorite" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Animal" inverseName="fans" inverseEntity="Animal"/>
        </entity>
        """

    static func animal(breed: Bool) -> String {
        """
        <entity name="Animal">
            \(breed ? "<attribute name=\"breed\" optional=\"YES\" attributeType=\"String\"/>" : "")
            <attribute name="name" attributeType="String"/>
            <relationship name="owner" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Owner" inverseName="pets" inverseEntity="Owner"/>
            <relationship name="fans" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Person" inverseName="favorite" inverseEntity="Person"/>
            <uniquenessConstraints><uniquenessConstraint><constraint value="name"/></uniquenessConstraint></uniquenessConstraints>
        </entity>
        """
    }

    /// Animal with Dog (breed) and Cat (lives) below it.
    static let v1 = model(animal(breed: false) + """
        <entity name="Dog" parentEntity="Animal"><attribute name="breed" optional="YES" attributeType="String"/></entity>
        <entity name="Cat" parentEntity="Animal"><attribute name="lives" optional="YES" attributeType="Integer 16" usesScalarValueType="YES"/></entity>
        """ + owner)

    /// breed moved up to Animal; Cat moved out of the hierarchy (its owner and fans gone).
    static let movedOut = model(animal(breed: true) + """
        <entity name="Dog" parentEntity="Animal"></entity>
        <entity name="Cat">
            <attribute name="lives" optional="YES" attributeType="Integer 16" usesScalarValueType="YES"/>
            <attribute name="name" attributeType="String"/>
        </entity>
        """ + owner)

    /// Dog removed.
    static let dogRemoved = model(animal(breed: false) + """
        <entity name="Cat" parentEntity="Animal"><attribute name="lives" optional="YES" attributeType="Integer 16" usesScalarValueType="YES"/></entity>
        """ + owner)

    static let data = """
        <Seed>
        <Owner name="Ann"><Dog name="Rex" breed="lab"/><Cat name="Tom" lives="9"/></Owner>
        <Owner name="Bob"><Cat name="Kit" lives="7"/><Animal name="Generic"/></Owner>
        <Person name="P1" favorite="Rex"/><Person name="P2" favorite="Kit"/><Person name="P3" favorite="Generic"/>
        </Seed>
        """

    /// Builds `data` at `v1`, migrates to `current`, verifies; returns the dump's lines.
    static func migrate(to current: String, from v1: String = v1, data: String = data) throws -> [String] {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        for (name, contents) in [("Zoo", v1), ("Zoo 2", current)] {
            _ = try directory.write(contents, to: "Zoo.xcdatamodeld/\(name).xcdatamodel/contents")
        }
        _ = try directory.write("""
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict><key>_XCCurrentVersionName</key><string>Zoo 2.xcdatamodel</string></dict></plist>
            """, to: "Zoo.xcdatamodeld/.xccurrentversion")
        let bundle = directory.path("Zoo.xcdatamodeld"), store = directory.path("zoo.sqlite")
        let build = try SeedgenTool.run(["build", "--model", bundle + "/Zoo.xcdatamodel", "--output", store, "--quiet", try directory.write(data, to: "Seed.xml")])
        #expect(build.status == 0, "\(build.error)")
        #expect(try Engines.migrate(store, bundle: bundle).migrated)
        #expect(try Engines.findings(store, model: bundle + "/Zoo 2.xcdatamodel") == [])
        return try Engines.dumpLines(store, model: bundle + "/Zoo 2.xcdatamodel")
    }

    @Test("a property moved up, an entity moved out of its hierarchy: values kept; a reference to a moved object becomes nil")
    func movedOutOfTheHierarchy() throws {
        #expect(try Self.migrate(to: Self.movedOut) == [
            ##"<Dump xmlns:seedgen="urn:seedgen:source">"##,
            ##"<Dog breed="lab" name="Rex" seedgen:owner="#Owner-1"/>"##,
            ##"<Animal name="Generic" seedgen:owner="#Owner-2"/>"##,
            ##"<Cat seedgen:id="#Cat-1" lives="9" name="Tom"/>"##,
            ##"<Cat seedgen:id="#Cat-2" lives="7" name="Kit"/>"##,
            ##"<Owner seedgen:id="#Owner-1" name="Ann"/>"##,
            ##"<Owner seedgen:id="#Owner-2" name="Bob"/>"##,
            ##"<Person seedgen:id="#Person-1" name="P1" favorite="Rex"/>"##,
            ##"<Person seedgen:id="#Person-2" name="P2"/>"##,
            ##"<Person seedgen:id="#Person-3" name="P3" favorite="Generic"/>"##,
            "</Dump>",
        ])
    }

    @Test("a sub-entity removed: its rows go, and references to them become nil")
    func subEntityRemoved() throws {
        #expect(try Self.migrate(to: Self.dogRemoved) == [
            ##"<Dump xmlns:seedgen="urn:seedgen:source">"##,
            ##"<Cat lives="9" name="Tom" seedgen:owner="#Owner-1"/>"##,
            ##"<Cat lives="7" name="Kit" seedgen:owner="#Owner-2"/>"##,
            ##"<Animal name="Generic" seedgen:owner="#Owner-2"/>"##,
            ##"<Owner seedgen:id="#Owner-1" name="Ann"/>"##,
            ##"<Owner seedgen:id="#Owner-2" name="Bob"/>"##,
            ##"<Person seedgen:id="#Person-1" name="P1"/>"##,
            ##"<Person seedgen:id="#Person-2" name="P2" favorite="Kit"/>"##,
            ##"<Person seedgen:id="#Person-3" name="P3" favorite="Generic"/>"##,
            "</Dump>",
        ])
    }

    /// Clubs with ordered members, each person in one club.
    static let orderedClubs = model("""
        <entity name="Club">
            <attribute name="name" attributeType="String"/>
            <relationship name="members" optional="YES" toMany="YES" ordered="YES" deletionRule="Nullify" destinationEntity="Person" inverseName="club" inverseEntity="Person"/>
        </entity>
        <entity name="Person">
            <attribute name="name" attributeType="String"/>
            <relationship name="club" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Club" inverseName="members" inverseEntity="Club"/>
        </entity>
        """)

    /// A person in several clubs: `club` becomes the to-many `clubs` (renaming identifier `club`).
    static let manyClubs = orderedClubs
        .replacingOccurrences(of: #"inverseName="club""#, with: #"inverseName="clubs""#)
        .replacingOccurrences(of: #"<relationship name="club" optional="YES" maxCount="1""#, with: #"<relationship name="clubs" optional="YES" toMany="YES""#)
        .replacingOccurrences(of: #"inverseEntity="Club"/>"#, with: #"inverseEntity="Club" elementID="club"/>"#)

    @Test("a to-one made to-many: its links become the join table's rows, the ordered inverse's positions with them")
    func toOneBecomesToMany() throws {
        let data = """
            <Seed xmlns:seedgen="urn:seedgen:source"><Person seedgen:id="a" name="Ann"/><Person seedgen:id="b" name="Bob"/><Person seedgen:id="c" name="Cy"/>\
            <Person seedgen:id="d" name="Di"/><Person seedgen:id="e" name="Eve"/><Club name="Linz" seedgen:members="c a d"/><Club name="Wels" seedgen:members="b"/></Seed>
            """
        let lines = try Self.migrate(to: Self.manyClubs, from: Self.orderedClubs, data: data)
        // Not in Z_PK order: the positions were carried over, not made afresh.
        #expect(lines.contains(##"<Club seedgen:id="#Club-1" name="Linz" seedgen:members="c a d"/>"##), "\(lines)")
        #expect(lines.contains(##"<Club seedgen:id="#Club-2" name="Wels" seedgen:members="b"/>"##), "\(lines)")
        #expect(lines.filter { $0.hasPrefix("<Person") }.count == 5, "\(lines)")
    }

    @Test("a to-many made to-one: each object's one link becomes its foreign key, positions kept; an object with two links is refused, named")
    func toManyBecomesToOne() throws {
        let data = """
            <Seed xmlns:seedgen="urn:seedgen:source"><Person seedgen:id="a" name="Ann"/><Person seedgen:id="b" name="Bob"/><Person seedgen:id="c" name="Cy"/>\
            <Person seedgen:id="d" name="Di"/><Club name="Linz" seedgen:members="c a d"/><Club name="Wels" seedgen:members="b"/></Seed>
            """
        let lines = try Self.migrate(to: Self.orderedClubs, from: Self.manyClubs, data: data)
        #expect(lines.contains(##"<Club seedgen:id="#Club-1" name="Linz" seedgen:members="c a d"/>"##), "\(lines)")
        #expect(lines.contains(##"<Club seedgen:id="#Club-2" name="Wels" seedgen:members="b"/>"##), "\(lines)")
        // From an unordered many-to-many: the new ordered list is in Z_PK order.
        let unordered = Self.manyClubs.replacingOccurrences(of: #"toMany="YES" ordered="YES""#, with: #"toMany="YES""#)
        #expect(unordered != Self.manyClubs)
        let numbered = try Self.migrate(to: Self.orderedClubs, from: unordered, data: data)
        #expect(numbered.contains(##"<Club seedgen:id="#Club-1" name="Linz" seedgen:members="a c d"/>"##), "\(numbered)")
        // Bob in both clubs: which link the to-one keeps is not known.
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        _ = try directory.write(Self.manyClubs, to: "Zoo.xcdatamodeld/Zoo.xcdatamodel/contents")
        _ = try directory.write(Self.orderedClubs, to: "Zoo.xcdatamodeld/Zoo 2.xcdatamodel/contents")
        _ = try directory.write(#"<?xml version="1.0"?><plist version="1.0"><dict><key>_XCCurrentVersionName</key><string>Zoo 2.xcdatamodel</string></dict></plist>"#,
                                to: "Zoo.xcdatamodeld/.xccurrentversion")
        let store = directory.path("zoo.sqlite")
        let twice = data.replacingOccurrences(of: #"seedgen:members="c a d""#, with: #"seedgen:members="c a d b""#)
        #expect(try SeedgenTool.run(["build", "--model", directory.path("Zoo.xcdatamodeld/Zoo.xcdatamodel"), "--output", store, "--quiet",
                                     try directory.write(twice, to: "Seed.xml")]).status == 0)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: store))
        #expect {
            try Engines.migrate(store, bundle: directory.path("Zoo.xcdatamodeld"))
        } throws: { error in
            "\(error)".contains("Person.club changes to-many → to-one, and the Person object with Z_PK 2 holds 2 links")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: store)) == bytes)
    }
}
