import Foundation
import SeedModel
import SeedgenTestSupport
import Testing
@testable import SeedStore

/// The content digest of a store written in place is digested from the rows as the row stream
/// writes them (`ContentDigest.StreamedPieces`), not read back. It must be the digest that
/// reading the finished store gives, whatever the values: the stream emulates SQLite's column
/// affinity for the values whose stored form is certain and leaves the store to be read for the
/// others. Rows of a held-back table (`RowStream.holdBack`) are written by key.
@Suite("Content digest streamed from the rows")
struct StoreDigestStreamTests {
    /// 4 cases in `make test`, 100 in `make property` (each builds a store of up to 2,400 rows).
    static let cases = PropertyCases.count(makeTest: 120) / 30

    /// A column of each declared type (VARCHAR, BLOB, TIMESTAMP, FLOAT, INTEGER, DECIMAL), and
    /// a sub-entity whose rows share its parent's table.
    static let entities = """
        <entity name="Item" representedClassName="Item" syncable="YES">
            <attribute name="amount" optional="YES" attributeType="Decimal"/>
            <attribute name="count" optional="YES" attributeType="Integer 64" usesScalarValueType="YES"/>
            <attribute name="data" optional="YES" attributeType="Binary"/>
            <attribute name="name" optional="YES" attributeType="String"/>
            <attribute name="weight" optional="YES" attributeType="Double" usesScalarValueType="YES"/>
            <attribute name="when" optional="YES" attributeType="Date"/>
            <fetchIndex name="byName"><fetchIndexElement property="name" type="Binary" order="ascending"/></fetchIndex>
        </entity>
        <entity name="Special" representedClassName="Special" parentEntity="Item" syncable="YES">
            <attribute name="grade" optional="YES" attributeType="Integer 16" usesScalarValueType="YES"/>
        </entity>
        <entity name="Tag" representedClassName="Tag" syncable="YES">
            <attribute name="label" optional="YES" attributeType="String"/>
        </entity>
        """

    static let columns = ["Item": ["ZAMOUNT", "ZCOUNT", "ZDATA", "ZNAME", "ZWEIGHT", "ZWHEN"],
                          "Special": ["ZAMOUNT", "ZCOUNT", "ZDATA", "ZGRADE", "ZNAME", "ZWEIGHT", "ZWHEN"], "Tag": ["ZLABEL"]]

    /// A value of any kind: with `plain`, only values an import gives its columns (whose
    /// stored form the stream knows); otherwise also text in number columns, integers in FLOAT
    /// columns, -0.0, NaN, infinities and integral reals of 2^53 and more.
    static func value(for column: String, plain: Bool, _ random: inout SplitMix64) -> SQLValue? {
        if Int.random(in: 0..<8, using: &random) == 0 { return nil }
        if !plain && Int.random(in: 0..<6, using: &random) == 0 {
            let awkward: [SQLValue] = [.text("12"), .text(" 3.5"), .text("x"), .integer(7), .real(-0.0), .real(.nan), .real(.infinity),
                                       .real(-.infinity), .real(0x1p53), .real(-0x1p60), .real(0x1p63), .real(1e300), .blob([]), .text("")]
            return awkward.randomElement(using: &random)
        }
        switch column {
        case "ZNAME", "ZLABEL":
            let length = Int.random(in: 0...(Int.random(in: 0..<8, using: &random) > 0 ? 20 : 3000), using: &random)
            return .text(String((0..<length).map { _ in ["a", "é", "\u{0}", "𝄞", "Z"].randomElement(using: &random)! }))
        case "ZDATA":
            return .blob((0..<Int.random(in: 0...200, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) })
        case "ZCOUNT", "ZGRADE":
            return .integer([Int64.min, Int64.max, 0, -1, Int64.random(in: Int64.min...Int64.max, using: &random)].randomElement(using: &random)!)
        case "ZWHEN", "ZAMOUNT":
            // Whole seconds (kept as INTEGER) and fractions (kept as REAL).
            let whole = Double(Int64.random(in: -(1 << 40)...(1 << 40), using: &random))
            return .real(Bool.random(using: &random) ? whole : whole + Double.random(in: 0.001..<0.999, using: &random))
        default:
            return .real([0.0, 1.0, -2.5, 0x1p70, Double.random(in: -1e12...1e12, using: &random)].randomElement(using: &random)!)
        }
    }

    /// Rows in the store's order: each table's by ascending `Z_PK` (gaps across several pieces of
    /// the digest), items and specials mixed in their table, tables in the layout's order.
    static func rows(plain: Bool, _ random: inout SplitMix64) -> [StoreInPlaceTests.Row] {
        var rows: [StoreInPlaceTests.Row] = []
        for table in [["Item", "Special"], ["Tag"]] {
            var primaryKey: Int64 = 0
            for _ in 0..<Int.random(in: 1...1200, using: &random) {
                primaryKey += Bool.random(using: &random) ? 1 : Int64.random(in: 1...200, using: &random)
                let entity = table.randomElement(using: &random)!
                rows.append(.init(entity: entity, primaryKey: primaryKey, values: columns[entity]!.map { value(for: $0, plain: plain, &random) }))
            }
        }
        return rows
    }

    /// Builds `rows` through the row stream (`StoreInPlaceTests.build`) and checks the store:
    /// its recorded digest is the one read back.
    static func build(_ rows: [StoreInPlaceTests.Row], layout: StoreLayout, at path: String, holding held: String? = nil,
                      limit: Int? = nil) throws -> StoreBuilder.Summary {
        let summary = try StoreInPlaceTests.build(rows, layout: layout, at: path, columns: columns, holding: held, heldBytesLimit: limit)
        let read = try ContentDigest.summarize(try Database(path: path, mode: .readOnly))
        #expect(summary.contentDigest == read.digest)
        // Each entity's rows, counted as they were digested (a sub-entity shares its table).
        var given: [String: Int] = [:]
        for row in rows { given[row.entity, default: 0] += 1 }
        #expect(summary.rowCounts.filter { $0.value > 0 } == given)
        #expect(Dictionary(uniqueKeysWithValues: read.rowsByEntity.map { (layout.entity(number: $0.key)!.name, $0.value) }) == given)
        return summary
    }

    @Test("the digest of rows written in the store's order is the one read back, for values of every kind")
    func streamedIsRead() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let layout = try StoreLayout(model: try StoreFixture.model(Self.entities, in: directory))
        #expect(Set(layout.tables.flatMap(\.columns).map(\.sqlType)) == ["VARCHAR", "BLOB", "TIMESTAMP", "FLOAT", "INTEGER", "DECIMAL"])
        for index in 0..<Self.cases {
            var random = SplitMix64(seed: UInt64(index))
            let plain = index % 2 == 0
            let summary = try Self.build(Self.rows(plain: plain, &random), layout: layout, at: directory.path("store-\(index).sqlite"))
            #expect(summary.writtenInPlace, "case \(index)")
            // Plain values are digested as written: no piece of the entity tables is read.
            if plain { #expect(summary.streamedDigestPieces > 0, "case \(index)") }
        }
        // Each awkward value alone: the digest stays right (read back where not emulated).
        let awkward: [SQLValue] = [.text("12"), .integer(7), .real(-0.0), .real(.nan), .real(.infinity), .real(0x1p53), .real(0x1p63), .blob([]), .text("")]
        for (index, value) in awkward.enumerated() {
            for column in Self.columns["Item"]! {
                let values = Self.columns["Item"]!.map { $0 == column ? value : nil }
                _ = try Self.build([.init(entity: "Item", primaryKey: 1, values: values)], layout: layout, at: directory.path("awkward-\(index)-\(column).sqlite"))
            }
        }
    }

    @Test("rows held back are written by key: in place, the bytes of the same rows written in order")
    func heldBackRowsAreWrittenByKey() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let layout = try StoreLayout(model: try StoreFixture.model(Self.entities, in: directory))
        var random = SplitMix64(seed: 42)
        let rows = Self.rows(plain: true, &random)
        let inOrder = try Self.build(rows, layout: layout, at: directory.path("in-order.sqlite"))
        // Tags (the last table) defined in another order than their keys, held back.
        let shuffled = rows.filter { $0.entity != "Tag" } + rows.filter { $0.entity == "Tag" }.shuffled(using: &random)
        let held = try Self.build(shuffled, layout: layout, at: directory.path("held.sqlite"), holding: "ZTAG")
        #expect(inOrder.writtenInPlace && held.writtenInPlace)
        #expect(held.fileSHA256 == inOrder.fileSHA256)
        // Past the limit of held bytes they are written as they came: copied, the same bytes.
        let spilled = try Self.build(shuffled, layout: layout, at: directory.path("spilled.sqlite"), holding: "ZTAG", limit: 1_000)
        #expect(!spilled.writtenInPlace && spilled.fileSHA256 == inOrder.fileSHA256)
        // Not held back, the same rows are copied.
        let copied = try Self.build(shuffled, layout: layout, at: directory.path("copied.sqlite"))
        #expect(!copied.writtenInPlace && copied.fileSHA256 == inOrder.fileSHA256)
    }
}
