import Foundation
import SeedgenTestSupport
import Testing
@testable import SeedEvolution

/// A rebuilt table's indexes: one whose entries the source table's index holds already is that
/// index's b-tree, under its new name; one over values the migration changes is made anew.
/// Either way SQLite's `integrity_check` finds every index holding exactly its table's rows.
@Suite("seedgen migrate, indexes of a rebuilt table")
struct MigrationIndexTests {
    static func model(_ name: String, _ item: String) -> String {
        ClubModels.contents("""
            <entity name="Box"><attribute name="label" optional="YES" attributeType="String"/>
                <relationship name="items" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="\(name)" inverseName="box" inverseEntity="\(name)"/></entity>
            \(item)
            """)
    }

    /// Version 1: Item, with a unique code, an indexed optional rank and a to-one box.
    static let v1 = model("Item", """
        <entity name="Item"><attribute name="code" attributeType="String"/>
            <attribute name="rank" optional="YES" attributeType="Integer 32" indexed="YES"/>
            <relationship name="box" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Box" inverseName="items" inverseEntity="Box"/>
            <uniquenessConstraints><uniquenessConstraint><constraint value="code"/></uniquenessConstraint></uniquenessConstraints></entity>
        """)
    /// Version 2: Item renamed Thing, given a weight (the table is rebuilt), rank made required
    /// with a default (the rows without one change: its index cannot be kept).
    static let v2 = model("Thing", """
        <entity name="Thing" elementID="Item"><attribute name="code" attributeType="String"/>
            <attribute name="rank" attributeType="Integer 32" defaultValueString="0" indexed="YES"/>
            <attribute name="weight" optional="YES" attributeType="Double" defaultValueString="1.5"/>
            <relationship name="box" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Box" inverseName="items" inverseEntity="Box"/>
            <uniquenessConstraints><uniquenessConstraint><constraint value="code"/></uniquenessConstraint></uniquenessConstraints></entity>
        """)

    static func rootPages(_ store: String) throws -> [String: String] {
        Dictionary(uniqueKeysWithValues: try SQLiteShell.rows(store, "SELECT name, rootpage FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL").map {
            let parts = $0.split(separator: "|")
            return (String(parts[0]), String(parts[1]))
        })
    }

    @Test("kept values: the source index's b-tree, renamed; changed values: made anew; integrity_check ok, verify clean")
    func adoptedAndMade() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let bundle = try ClubModels.writeBundle([("Club", Self.v1), ("Club 2", Self.v2)], current: "Club 2", in: directory)
        var items = ""
        for number in (0..<300).reversed() {  // not in code order
            items += #"<Item code="c\#(number)" box="\#(number % 7)"\#(number % 3 == 0 ? "" : #" rank="\#(number % 11)""#)/>"#
        }
        let boxes = (0..<7).map { #"<Box label="\#($0)"/>"# }.joined()
        let source = try directory.write("<Seed>" + boxes + items + "</Seed>", to: "Seed.xml")
        let store = directory.path("v1.sqlite")
        let build = try SeedgenTool.run(["build", "--model", bundle + "/Club.xcdatamodel", "--output", store, "--quiet", "--key", "Box=label", source])
        #expect(build.status == 0, "\(build.error)")
        // Without auto-vacuum, the migration's closing incremental vacuum moves no page: each
        // index's root page tells which b-tree it is.
        try SQLiteShell.execute("PRAGMA auto_vacuum = NONE; VACUUM", on: store)
        let before = try Self.rootPages(store)
        let report = try Engines.migrate(store, bundle: bundle)
        #expect(report.indexesTakenOver == ["ZTHING_ZBOX_INDEX", "Z_Thing_UNIQUE_code"], "\(report.indexesTakenOver)")
        #expect(try SQLiteShell.rows(store, "PRAGMA integrity_check") == ["ok"])
        let after = try Self.rootPages(store)
        #expect(after["Z_Thing_UNIQUE_code"] == before["Z_Item_UNIQUE_code"], "\(before) → \(after)")
        #expect(after["ZTHING_ZBOX_INDEX"] == before["ZITEM_ZBOX_INDEX"], "\(before) → \(after)")
        let zeros = (0..<300).filter { $0 % 3 == 0 || $0 % 11 == 0 }.count
        #expect(try SQLiteShell.rows(store, "SELECT COUNT(*) FROM ZTHING INDEXED BY Z_Thing_rank WHERE ZRANK = 0") == [String(zeros)])
        #expect(try Engines.findings(store, model: bundle + "/Club 2.xcdatamodel") == [])
    }
}
