import Foundation
import SeedgenTestSupport
import Testing

/// Objects merged by a natural key that no reference names (the key index's fingerprints),
/// whatever order their keys come in: ascending (kept out of the index, `KeyIndex`'s ascending
/// run), ascending and then not (the run ends and the rows written so far are filed), or any.
@Suite("Keyed merges in any order of keys")
struct KeyedMergeOrderTests {
    static let cases = PropertyCases.count(makeTest: 100) / 4

    /// An entity keyed by `code` (of `keyType`), with three optional attributes a merge fills.
    static func model(keyType: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" userDefinedModelVersionIdentifier="">
            <entity name="Item" representedClassName="Item" syncable="YES">
                <attribute name="code" attributeType="\(keyType)" usesScalarValueType="YES"/>
                <attribute name="a" optional="YES" attributeType="String"/>
                <attribute name="b" optional="YES" attributeType="String"/>
                <attribute name="n" optional="YES" attributeType="Integer 64" usesScalarValueType="YES"/>
                <uniquenessConstraints><uniquenessConstraint><constraint value="code"/></uniquenessConstraint></uniquenessConstraints>
            </entity>
        </model>
        """
    }

    /// A case: distinct keys, mentioned first in an ascending prefix of random length and then
    /// in random order, with repeated mentions anywhere after a key's first (right after it,
    /// or after the run ended); each mention gives a random part of its object's attributes.
    struct Case {
        var mentions: [(key: String, given: [String])] = []

        init(seed: UInt64, keys: [String]) {
            var random = SplitMix64(seed: seed)
            let count = Int.random(in: 1...min(keys.count, 60), using: &random)
            let chosen = Array(keys.shuffled(using: &random).prefix(count))
            let sorted = chosen.sorted { Self.order($0, $1) }
            let prefix = Int.random(in: 0...count, using: &random)
            var order = Array(sorted.prefix(prefix)) + Array(sorted.dropFirst(prefix)).shuffled(using: &random)
            for _ in 0..<Int.random(in: 0...count, using: &random) {
                let first = Int.random(in: 0..<order.count, using: &random)
                order.insert(order[first], at: Int.random(in: (first + 1)...order.count, using: &random))
            }
            mentions = order.map { key in (key, ["a", "b", "n"].filter { _ in Bool.random(using: &random) }) }
        }

        /// Keys' order by value: integers as numbers, text as text.
        static func order(_ left: String, _ right: String) -> Bool {
            if let left = Int64(left), let right = Int64(right) { return left < right }
            return left < right
        }

        static func value(_ attribute: String, of key: String) -> String {
            attribute == "n" ? String(key.utf8.reduce(7) { $0 &* 31 &+ Int($1) } % 100_000) : "\(attribute)-\(key)"
        }

        var xml: String {
            let items = mentions.map { key, given in
                "<Item code=\"\(key)\"\(given.map { " \($0)=\"\(Self.value($0, of: key))\"" }.joined())/>"
            }
            return "<Items>\(items.joined(separator: "\n"))</Items>"
        }

        /// One row per key in the order of first mention, holding every attribute a mention gave.
        var expectedRows: [String] {
            var keys: [String] = []
            var given: [String: Set<String>] = [:]
            for (key, attributes) in mentions {
                if given[key] == nil { keys.append(key) }
                given[key, default: []].formUnion(attributes)
            }
            return keys.enumerated().map { offset, key in
                let values = ["a", "b", "n"].map { given[key]!.contains($0) ? Self.value($0, of: key) : "-" }
                return "\(offset + 1)|\(key)|" + values.joined(separator: "|")
            }
        }
    }

    static let textKeys = (0..<200).map { String(format: "K%03d", $0) } + (0..<40).map { "long-\($0)" }
    /// Integers whose bytes differ beyond the lowest (above 255, negative): ascending by value
    /// must be ascending by their key bytes.
    static let integerKeys = (0..<240).map { String(Int64($0 - 120) * 997 * 1_000_003) }

    @Test("text or integer keys: each key one object holding every value its mentions gave, in the order of first mention",
          arguments: [false, true])
    func mergesInAnyOrder(integers: Bool) throws {
        let run = try ImportRun(model: Self.model(keyType: integers ? "Integer 64" : "String"))
        defer { run.directory.remove() }
        for seed in 0..<UInt64(Self.cases) {
            let sample = Case(seed: seed &* 0x9E37_79B9 &+ (integers ? 1 : 0), keys: integers ? Self.integerKeys : Self.textKeys)
            try run.build([("items.xml", sample.xml)])
            let rows = try run.rows("SELECT Z_PK, ZCODE, IFNULL(ZA, '-'), IFNULL(ZB, '-'), IFNULL(ZN, '-') FROM ZITEM ORDER BY Z_PK")
            #expect(rows == sample.expectedRows, "seed \(seed): \(sample.mentions.map(\.key))")
            guard rows == sample.expectedRows else { return }
        }
        #expect(try run.verify().isEmpty)
    }

    @Test("a key given by a merge, below the ascending run and above it, names its object for later mentions")
    func keyGivenByAMerge() throws {
        let run = try ImportRun(model: Self.model(keyType: "String"))
        defer { run.directory.remove() }
        try run.build([("items.xml", """
            <Items xmlns:seedgen="urn:seedgen:source">
                <Item seedgen:id="x" a="x"/>
                <Item seedgen:id="y" a="y"/>
                <Item code="K05"/>
                <Item code="K07"/>
                <Item seedgen:id="y" code="K09"/>
                <Item code="K09" b="y"/>
                <Item seedgen:id="x" code="K06"/>
                <Item code="K06" b="x"/>
                <Item code="K05" b="5"/>
                <Item code="K08" b="8"/>
                <Item code="K07" b="7"/>
            </Items>
            """)])
        #expect(try run.rows("SELECT Z_PK, ZCODE, IFNULL(ZA, '-'), IFNULL(ZB, '-') FROM ZITEM ORDER BY Z_PK")
            == ["1|K06|x|x", "2|K09|y|y", "3|K05|-|5", "4|K07|-|7", "5|K08|-|8"])
        #expect(try run.verify().isEmpty)
    }
}
