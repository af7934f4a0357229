import Foundation
import SeedModel
import SeedgenTestSupport
import Testing
@testable import SeedStore

/// A store written in place (the scratch database becomes the store, written once) is the very
/// file that a copy of the same rows (`VACUUM INTO`) gives: generated models with and without
/// indexes, rows of every kind (overflowing a page too), built once in the store's order and
/// once not.
@Suite("Store written in place")
struct StoreInPlaceTests {
    /// A tenth of the other properties' cases (each builds two stores of up to 5,000 rows): 10 in
    /// `make test`, 300 in `make property`.
    static let cases = PropertyCases.count(makeTest: 100) / 10

    /// Two entities without relationships or constraints: tables, no index.
    static let entities = """
        <entity name="Event" representedClassName="Event" syncable="YES">
            <attribute name="note" optional="YES" attributeType="String"/>
            <attribute name="payload" optional="YES" attributeType="Binary"/>
            <attribute name="when" optional="YES" attributeType="Date"/>
        </entity>
        <entity name="Place" representedClassName="Place" syncable="YES">
            <attribute name="name" optional="YES" attributeType="String"/>
            <attribute name="size" optional="YES" attributeType="Integer 64" usesScalarValueType="YES"/>
            <attribute name="weight" optional="YES" attributeType="Double" usesScalarValueType="YES"/>
        </entity>
        """

    /// One row: its entity, `Z_PK` and values in the entity's column order.
    struct Row {
        var entity: String
        var primaryKey: Int64
        var values: [SQLValue?]
    }

    /// The same entities with indexes: a fetch index and a uniqueness constraint (random 64-bit
    /// sizes: distinct).
    static let indexedEntities = entities
        .replacingOccurrences(of: "\n</entity>", with: "\n<fetchIndex name=\"byWhen\"><fetchIndexElement property=\"when\" type=\"Binary\" order=\"descending\"/></fetchIndex>\n</entity>", options: [], range: entities.range(of: "\n</entity>"))
        .replacingOccurrences(of: "usesScalarValueType=\"YES\"/>\n</entity>", with: "usesScalarValueType=\"YES\"/>\n<uniquenessConstraints><uniquenessConstraint><constraint value=\"size\"/></uniquenessConstraint></uniquenessConstraints>\n</entity>")

    static let columns = ["Event": ["ZNOTE", "ZPAYLOAD", "ZWHEN"], "Place": ["ZNAME", "ZSIZE", "ZWEIGHT"]]

    static func rows(_ random: inout SplitMix64) -> [Row] {
        func text(_ random: inout SplitMix64) -> SQLValue? {
            switch Int.random(in: 0..<10, using: &random) {
            case 0: nil
            case 1: .text(String(repeating: "é", count: Int.random(in: 2000...9000, using: &random)))  // overflow pages
            default: .text(String((0..<Int.random(in: 0...60, using: &random)).map { _ in Character(UnicodeScalar(UInt8.random(in: 32...126, using: &random))) }))
            }
        }
        var rows: [Row] = []
        for entity in ["Event", "Place"] {
            for primaryKey in 1...Int64.random(in: 1...2500, using: &random) {
                let values: [SQLValue?] = entity == "Event"
                    ? [text(&random), Bool.random(using: &random) ? nil : .blob((0..<Int.random(in: 0...300, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }),
                       .real(Double.random(in: -1e9...1e9, using: &random))]
                    : [text(&random), .integer(Int64.random(in: Int64.min...Int64.max, using: &random)), Bool.random(using: &random) ? nil : .real(Double.random(in: -1...1, using: &random))]
                rows.append(Row(entity: entity, primaryKey: primaryKey, values: values))
            }
        }
        return rows
    }

    /// Builds `rows` in the given order through the builder's row stream, as an import does:
    /// each entity's insert prepared once (asking for it flushes the stream), with its columns
    /// from `columns` (this suite's by default), the rows of the table `held` held back.
    static func build(_ rows: [Row], layout: StoreLayout, at path: String, columns: [String: [String]] = columns,
                      holding held: String? = nil, heldBytesLimit: Int? = nil,
                      after: ((StoreBuilder) throws -> Void)? = nil) throws -> StoreBuilder.Summary {
        let builder = try StoreBuilder(layout: layout, outputPath: path)
        if let heldBytesLimit { builder.rowStream.heldBytesLimit = heldBytesLimit }
        var inserts: [String: Statement] = [:]
        for row in rows {
            let entity = layout.entity(named: row.entity)!
            let insert = try inserts[row.entity] ?? builder.objectRows.insertStatement(for: entity, columns: columns[row.entity]!)
            inserts[row.entity] = insert
            if entity.table == held { try builder.holdBackRows(of: entity.table) }
            try row.values.withUnsafeBufferPointer { try builder.rowStream.append(insert, primaryKey: row.primaryKey, values: $0) }
        }
        try after?(builder)
        return try builder.finish()
    }

    @Test("rows in the store's order are written once, and give the bytes a copy of the same rows gives", arguments: [false, true])
    func inPlaceIsTheCopy(indexed: Bool) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let layout = try StoreLayout(model: try StoreFixture.model(indexed ? Self.indexedEntities : Self.entities, in: directory))
        #expect(layout.schema.contains { $0.hasPrefix("CREATE UNIQUE INDEX") && $0.contains("ZSIZE") } == indexed)
        #expect(layout.schema.contains { $0.hasPrefix("CREATE INDEX") && $0.contains("ZWHEN") } == indexed)
        for index in 0..<Self.cases {
            var random = SplitMix64(seed: UInt64(index))
            let rows = Self.rows(&random)
            let inOrder = try Self.build(rows, layout: layout, at: directory.path("in-order.sqlite"))
            let shuffled = try Self.build(rows.shuffled(using: &random), layout: layout, at: directory.path("shuffled.sqlite"))
            #expect(inOrder.writtenInPlace && !shuffled.writtenInPlace, "case \(index)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: inOrder.path)) == Data(contentsOf: URL(fileURLWithPath: shuffled.path)), "case \(index)")
        }
        // Every check of `verify` holds on a store written in place.
        var random = SplitMix64(seed: 99)
        let path = try Self.build(Self.rows(&random), layout: layout, at: directory.path("checked.sqlite")).path
        #expect(try StoreVerifier(storePath: path, layout: layout, asBuilt: true).verify().isEmpty)
    }

    @Test("a store whose rows came in another order, or changed after they were written, is copied")
    func copiedOtherwise() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let layout = try StoreLayout(model: try StoreFixture.model(Self.entities, in: directory))
        var random = SplitMix64(seed: 7)
        let rows = Self.rows(&random)
        let reference = try Self.build(rows, layout: layout, at: directory.path("reference.sqlite"))
        // Tables in the other order; rows interleaved; one row updated to the value it had.
        let placesFirst = rows.filter { $0.entity == "Place" } + rows.filter { $0.entity == "Event" }
        let interleaved = rows.enumerated().sorted { ($0.element.primaryKey, $0.offset) < ($1.element.primaryKey, $1.offset) }.map(\.element)
        let cases: [(String, [Row], ((StoreBuilder) throws -> Void)?)] = [
            ("places first", placesFirst, nil),
            ("interleaved", interleaved, nil),
            ("updated", rows, { try $0.execute("UPDATE ZEVENT SET ZWHEN = ZWHEN WHERE Z_PK = 1") }),
        ]
        for (name, order, after) in cases {
            let summary = try Self.build(order, layout: layout, at: directory.path("\(name).sqlite"), after: after)
            #expect(!summary.writtenInPlace, "\(name)")
            #expect(summary.fileSHA256 == reference.fileSHA256, "\(name)")
        }
        // A table constraint (a uniqueness constraint before framework 836) keeps an index of
        // its own beside the rows while they are written: such a layout is copied too, to the
        // bytes of its rows in any order.
        let unique = Self.entities.replacingOccurrences(
            of: "usesScalarValueType=\"YES\"/>\n</entity>",
            with: "usesScalarValueType=\"YES\"/>\n<uniquenessConstraints><uniquenessConstraint><constraint value=\"size\"/></uniquenessConstraint></uniquenessConstraints>\n</entity>")
        let constrained = try StoreLayout(model: try StoreFixture.model(unique, in: directory), era: FrameworkEra(version: 754))
        #expect(constrained.tables.contains { !$0.constraints.isEmpty } && !constrained.schema.contains { $0.contains("INDEX") })
        let constrainedInOrder = try Self.build(rows, layout: constrained, at: directory.path("constrained.sqlite"))
        let constrainedShuffled = try Self.build(rows.shuffled(using: &random), layout: constrained, at: directory.path("constrained-shuffled.sqlite"))
        #expect(!constrainedInOrder.writtenInPlace)
        #expect(constrainedInOrder.fileSHA256 == constrainedShuffled.fileSHA256)
        // A layout with a join table (a many-to-many's) is always copied.
        let library = try StoreFixture.build(try StoreFixture.model(LibraryModel.entities, in: directory), at: directory.path("library.sqlite")) {
            try LibraryModel.fill($0, order: [1, 2])
        }
        #expect(!library.writtenInPlace)
    }
}
