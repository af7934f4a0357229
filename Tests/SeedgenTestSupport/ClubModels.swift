import Foundation
/// Three versions of a model written for the migration tests, with a chain of renames: v1's
/// `Club` is v2's `Team` and v3's `Side`; `Person.nickname` becomes `alias`, then `handle`.
public enum ClubModels {
    /// A model's `contents` holding `entities`.
    public static func contents(_ entities: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" userDefinedModelVersionIdentifier="">
        \(entities)
        </model>
        """
    }

    /// Club, Person and Referee.
    public static let v1 = contents("""
        <entity name="Club">
            <attribute name="city" optional="YES" attributeType="String"/>
            <attribute name="founded" optional="YES" attributeType="Integer 16" usesScalarValueType="YES"/>
            <attribute name="name" attributeType="String"/>
            <relationship name="members" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Person" inverseName="club" inverseEntity="Person"/>
        </entity>
        <entity name="Person">
            <attribute name="name" attributeType="String"/>
            <attribute name="nickname" optional="YES" attributeType="String"/>
            <relationship name="club" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Club" inverseName="members" inverseEntity="Club"/>
        </entity>
        <entity name="Referee">
            <attribute name="name" optional="YES" attributeType="String"/>
        </entity>
        """)

    /// Club renamed Team (city removed, area added), nickname renamed alias, rating added with
    /// a default, Referee removed.
    public static let v2 = contents("""
        <entity name="Person">
            <attribute name="alias" optional="YES" attributeType="String" elementID="nickname"/>
            <attribute name="name" attributeType="String"/>
            <attribute name="rating" optional="YES" attributeType="Integer 32" defaultValueString="3" usesScalarValueType="YES"/>
            <relationship name="club" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Team" inverseName="members" inverseEntity="Team"/>
        </entity>
        <entity name="Team" elementID="Club">
            <attribute name="area" optional="YES" attributeType="String"/>
            <attribute name="founded" optional="YES" attributeType="Integer 16" usesScalarValueType="YES"/>
            <attribute name="name" attributeType="String"/>
            <relationship name="members" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Person" inverseName="club" inverseEntity="Person"/>
        </entity>
        """)

    /// Team renamed Side, founded required with a default, members ordered, alias renamed
    /// handle (the canonical name kept), Stadium added. The current version.
    public static let v3 = contents(v3Entities())

    /// v3's entities, with `person` in place of Person's (for variants that change it).
    public static func v3Entities(person: String? = nil, side: String? = nil) -> String {
        """
        <entity name="Person">
        \(person ?? """
            <attribute name="handle" optional="YES" attributeType="String" elementID="nickname"/>
            <attribute name="name" attributeType="String"/>
            <attribute name="rating" optional="YES" attributeType="Integer 32" defaultValueString="3" usesScalarValueType="YES"/>
            <relationship name="club" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Side" inverseName="members" inverseEntity="Side"/>
        """)
        </entity>
        <entity name="Side" elementID="Club">
        \(side ?? """
            <attribute name="area" optional="YES" attributeType="String"/>
            <attribute name="founded" attributeType="Integer 16" defaultValueString="1900" usesScalarValueType="YES"/>
            <attribute name="name" attributeType="String"/>
            <relationship name="members" optional="YES" toMany="YES" ordered="YES" deletionRule="Nullify" destinationEntity="Person" inverseName="club" inverseEntity="Person"/>
        """)
        </entity>
        <entity name="Stadium">
            <attribute name="name" optional="YES" attributeType="String"/>
        </entity>
        """
    }

    /// v3 with a uniqueness constraint on Side's name, new in it (rows may break it).
    public static let v3UniqueSideName = contents(v3Entities(side: """
            <attribute name="area" optional="YES" attributeType="String"/>
            <attribute name="founded" attributeType="Integer 16" defaultValueString="1900" usesScalarValueType="YES"/>
            <attribute name="name" attributeType="String"/>
            <relationship name="members" optional="YES" toMany="YES" ordered="YES" deletionRule="Nullify" destinationEntity="Person" inverseName="club" inverseEntity="Person"/>
            <uniquenessConstraints><uniquenessConstraint><constraint value="name"/></uniquenessConstraint></uniquenessConstraints>
        """))

    /// v3 with Person given a required `rank` without a default (rows of Person cannot get one).
    public static let v3RequiredRank = contents(v3Entities(person: """
            <attribute name="handle" optional="YES" attributeType="String" elementID="nickname"/>
            <attribute name="name" attributeType="String"/>
            <attribute name="rank" attributeType="Integer 16" usesScalarValueType="YES"/>
            <attribute name="rating" optional="YES" attributeType="Integer 32" defaultValueString="3" usesScalarValueType="YES"/>
            <relationship name="club" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Side" inverseName="members" inverseEntity="Side"/>
        """))

    /// v3 with Person's `handle` (v1's optional nickname) made required, without a default.
    public static let v3RequiredHandle = contents(v3Entities(person: """
            <attribute name="handle" attributeType="String" elementID="nickname"/>
            <attribute name="name" attributeType="String"/>
            <relationship name="club" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Side" inverseName="members" inverseEntity="Side"/>
        """))

    /// Two clubs of v1 with their members, a person without a club and a referee (XML).
    public static let clubsData = """
        <Seed><Club name="Linz" city="Linz" founded="1901"><Person name="Ann" nickname="A"/><Person name="Cy"/></Club>\
        <Club name="Wels"><Person name="Di"/></Club><Person name="Bob"/><Referee name="R"/></Seed>
        """

    /// The files in an `installedStore`'s directory but the bundle and the seed's source.
    public static func leftBeside(_ directory: TemporaryDirectory) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory.path("")).filter { !["Club.xcdatamodeld", "Seed.xml"].contains($0) }.sorted()
    }

    /// A store of v1 built from `data` (XML) and installed as an app installs it to update it
    /// later (recording its seed), beside the bundle v1, v2 and `current` (as "Club 3"): the
    /// directory, the bundle and the store; nothing else is beside it.
    public static func installedStore(data: String, current: String = v3, keys: [String] = []) throws -> (TemporaryDirectory, bundle: String, store: String) {
        let directory = try TemporaryDirectory()
        let bundle = try writeBundle([("Club", v1), ("Club 2", v2), ("Club 3", current)], current: "Club 3", in: directory)
        let seed = directory.path("v1-seed.sqlite"), store = directory.path("v1.sqlite")
        let source = try directory.write(data, to: "Seed.xml")
        let build = try SeedgenTool.run(["build", "--model", bundle + "/Club.xcdatamodel", "--output", seed, "--quiet", source] + keys.flatMap { ["--key", $0] })
        guard build.status == 0 else { throw FixtureError(build.error) }
        let install = try SeedgenTool.run(["install", seed, store])
        guard install.status == 0 else { throw FixtureError(install.error) }
        for file in [seed, directory.path(".v1.sqlite.seedgen-lock")] { try FileManager.default.removeItem(atPath: file) }
        return (directory, bundle, store)
    }

    /// Writes a bundle `Club.xcdatamodeld` into `directory` with `versions` (name → contents),
    /// `current` named in `.xccurrentversion`; returns its path.
    public static func writeBundle(_ versions: [(String, String)], current: String, in directory: TemporaryDirectory) throws -> String {
        for (name, contents) in versions {
            _ = try directory.write(contents, to: "Club.xcdatamodeld/\(name).xcdatamodel/contents")
        }
        _ = try directory.write("""
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0"><dict><key>_XCCurrentVersionName</key><string>\(current).xcdatamodel</string></dict></plist>
            """, to: "Club.xcdatamodeld/.xccurrentversion")
        return directory.path("Club.xcdatamodeld")
    }
}

/// A test fixture the `seedgen` tool could not make: what it said.
public struct FixtureError: Error, CustomStringConvertible {
    public let description: String

    public init(_ description: String) {
        self.description = description
    }
}
