import Foundation
import SeedImport
import SeedModel
import SeedStore
import SeedgenTestSupport
import Testing

/// References by natural key on the fast path: a key named before its object takes its `Z_PK`
/// at first sight, the object takes it later, and whatever does not fit is an error with a place.
@Suite("References by key")
struct KeyReferenceTests {
    /// Parties share one key (declared by Party); orders name a Customer and a Supplier by it,
    /// through to-ones without an inverse (their rows hold the foreign key only).
    static let shop = """
        <?xml version="1.0"?>
        <model>
            <entity name="Customer" parentEntity="Party"/>
            <entity name="Order">
                <attribute name="number" attributeType="Integer 32"/>
                <relationship name="customer" optional="YES" maxCount="1" destinationEntity="Customer"/>
                <relationship name="supplier" optional="YES" maxCount="1" destinationEntity="Supplier"/>
            </entity>
            <entity name="Party" isAbstract="YES">
                <attribute name="name" attributeType="String"/>
                <uniquenessConstraints><uniquenessConstraint><constraint value="name"/></uniquenessConstraint></uniquenessConstraints>
            </entity>
            <entity name="Supplier" parentEntity="Party"/>
        </model>
        """

    @Test("a key named before its object takes the next Z_PK at first sight, the object takes it when it comes; the same input gives the same bytes")
    func reservedAtFirstSight() throws {
        let input = """
            <Cup>
                <Team name="X" group="B"/>
                <Team name="Y" group="A"/>
                <Team name="Z" group="B"/>
                <Group name="A"/>
                <Group name="B"/>
                <Group name="C"/>
            </Cup>
            """
        let run = try ImportRun()
        defer { run.directory.remove() }
        let first = try run.build([("a.xml", input)])
        #expect(try run.rows("SELECT Z_PK, ZNAME FROM ZGROUP ORDER BY Z_PK") == ["1|B", "2|A", "3|C"])
        #expect(try run.rows("SELECT t.ZNAME, g.ZNAME FROM ZTEAM t JOIN ZGROUP g ON g.Z_PK = t.ZGROUP ORDER BY t.Z_PK") == ["X|B", "Y|A", "Z|B"])
        #expect(try run.rows("SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_NAME = 'Group'") == ["3"])
        #expect(try run.verify().isEmpty)
        let again = try ImportRun()
        defer { again.directory.remove() }
        #expect(try again.build([("a.xml", input)]).fileSHA256 == first.fileSHA256)
    }

    @Test("a key no object takes is a dangling reference, reported where it was first named")
    func danglingReservation() throws {
        let run = try ImportRun()
        defer { run.directory.remove() }
        let error = try #require(throws: InputError.self) {
            try run.build([("a.xml", "<Cup>\n<Group name=\"A\"/>\n<Team name=\"X\" group=\"Q\"/>\n<Team name=\"Y\" group=\"Q\"/>\n</Cup>")])
        }
        #expect(error.message == "Team.group: no Group has the key 'Q'", "\(error)")
        #expect(error.location.line == 3 && error.location.file.hasSuffix("a.xml"))
        #expect(!FileManager.default.fileExists(atPath: run.output))
    }

    @Test("a key a merge gives to an object written without it: references made before point at that object, later objects merge into it (it was a second row)")
    func keyCompletedByMerge() throws {
        let run = try ImportRun()
        defer { run.directory.remove() }
        try run.build([("a.xml", """
            <Cup xmlns:seedgen="urn:seedgen:source">
                <Group seedgen:id="g"/>
                <Team name="X" group="A"/>
                <Group seedgen:id="g" name="A"/>
                <Group name="A"/>
                <Team name="Y" group="A"/>
                <Stadium seedgen:id="s"/>
                <Stadium seedgen:id="s" name="Arena"/>
                <Stadium name="Arena"/>
            </Cup>
            """)])
        #expect(try run.rows("SELECT Z_PK, ZNAME FROM ZGROUP") == ["1|A"])
        #expect(try run.rows("SELECT ZNAME, ZGROUP FROM ZTEAM ORDER BY ZNAME") == ["X|1", "Y|1"])
        #expect(try run.rows("SELECT COUNT(*) FROM ZSTADIUM") == ["1"])
        #expect(try run.verify().isEmpty)
    }

    /// The error a build of `body` (inside `<Shop>`, from line 2) in the shop model stops with.
    static func shopError(_ body: String) throws -> InputError {
        let run = try ImportRun(model: shop)
        defer { run.directory.remove() }
        return try #require(throws: InputError.self) { try run.build([("a.xml", "<Shop>\n\(body)\n</Shop>")]) }
    }

    @Test("a reserved key's object must be what its references named: the narrowest of their entities, never two unrelated ones")
    func reservedEntity() throws {
        let good = try ImportRun(model: Self.shop)
        defer { good.directory.remove() }
        try good.build([("a.xml", "<Shop>\n<Order number=\"1\" customer=\"Ann\" supplier=\"Bob\"/>\n<Supplier name=\"Bob\"/>\n<Customer name=\"Ann\"/>\n</Shop>")])
        #expect(try good.rows("SELECT o.ZNUMBER, c.ZNAME, c.Z_ENT = e.Z_ENT FROM ZORDER o JOIN ZPARTY c ON c.Z_PK = o.ZCUSTOMER JOIN Z_PRIMARYKEY e ON e.Z_NAME = 'Customer'")
                == ["1|Ann|1"])

        let taken = try Self.shopError("<Order number=\"1\" customer=\"Ann\"/>\n<Supplier name=\"Ann\"/>")
        #expect(taken.message.contains("Supplier 'Ann': Order.customer names it as a Customer (at "), "\(taken)")
        #expect(taken.location.line == 3)
        let named = try Self.shopError("<Order number=\"1\" customer=\"Ann\"/>\n<Order number=\"2\" supplier=\"Ann\"/>")
        #expect(named.message.contains("Order.supplier: 'Ann' names a Supplier, but Order.customer names it as a Customer"), "\(named)")
        #expect(named.location.line == 3)
        let wrong = try Self.shopError("<Customer name=\"Ann\"/>\n<Order number=\"2\" supplier=\"Ann\"/>")
        #expect(wrong.message == "Order.supplier: 'Ann' names a Customer, not a Supplier", "\(wrong)")
    }
}

extension KeyReferenceTests {
    static func plist(_ body: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0">
        <dict>
        \(body)
        </dict>
        </plist>
        """
    }

    @Test("a plist item of keys and values is written flat, one that nests or names by identifier as a tree; both give the same objects as entity XML")
    func flatAndTreeItems() throws {
        let xml = try ImportRun()
        defer { xml.directory.remove() }
        let expected = try xml.build([("a.xml", """
            <Cup>
                <Team name="X" founded="2001-02-03T04:05:06Z" group="B"><venues><Stadium name="Arena"/></venues></Team>
                <Team name="Y" group="A"/>
                <Group name="A"/>
                <Group name="B"/>
                <Player name="P" number="7" captain="YES" height="1.8" team="X"/>
                <Player name="Q" number="9" team="Y"/>
            </Cup>
            """)])
        // Flat items (Y, the groups, P), items that turn into trees partway (X nests a stadium
        // after two flat keys) or at once (an @id), in array sections.
        let plist = try ImportRun()
        defer { plist.directory.remove() }
        let built = try plist.build([("a.plist", Self.plist("""
            <key>Teams</key>
            <array>
                <dict><key>name</key><string>X</string><key>founded</key><date>2001-02-03T04:05:06Z</date>
                    <key>venues</key><array><dict><key>name</key><string>Arena</string></dict></array>
                    <key>group</key><string>B</string></dict>
                <dict><key>name</key><string>Y</string><key>group</key><string>A</string></dict>
            </array>
            <key>Groups</key>
            <array><dict><key>name</key><string>A</string></dict><dict><key>name</key><string>B</string></dict></array>
            <key>Players</key>
            <array>
                <dict><key>name</key><string>P</string><key>number</key><integer>7</integer><key>captain</key><true/><key>height</key><real>1.8</real><key>team</key><string>X</string></dict>
                <dict><key>@id</key><string>q</string><key>name</key><string>Q</string><key>number</key><integer>9</integer><key>team</key><string>Y</string></dict>
            </array>
            """))])
        #expect(built.contentDigest == expected.contentDigest)
        #expect(try plist.rows("SELECT ZNAME, ZNUMBER, ZCAPTAIN FROM ZHUMAN ORDER BY ZNAME") == ["P|7|1", "Q|9|0"])
        // An error in a flat item names the value's line, as the tree does.
        let bad = try ImportRun()
        defer { bad.directory.remove() }
        let error = try #require(throws: InputError.self) {
            try bad.build([("b.plist", Self.plist("<key>Players</key>\n<array>\n<dict><key>name</key><string>P</string>\n<key>number</key><string>seven</string></dict>\n</array>"))])
        }
        #expect(error.message.contains("Player.number") && error.location.line == 7, "\(error)")
        let tree = try #require(throws: InputError.self) {
            try bad.build([("b.plist", Self.plist("<key>Players</key>\n<array>\n<dict><key>@id</key><string>p</string><key>name</key><string>P</string>\n<key>number</key><string>seven</string></dict>\n</array>"))])
        }
        #expect(tree.message.contains("Player.number") && tree.location.line == 7, "\(tree)")
    }
}
