import Foundation
import SeedgenTestSupport
import Testing
@testable import SeedStore

@Suite("Binary property list writer")
struct BinaryPropertyListTests {
    static let sample: PropertyListValue = .dictionary([
        "ascii": .string("SQLite"),
        "unicode": .string("Spielstätte Łódź ⚽️"),
        "empty": .string(""),
        "small": .integer(3),
        "medium": .integer(1327),
        "large": .integer(5_000_000_000),
        "negative": .integer(-42),
        "real": .real(2.5),
        "yes": .boolean(true),
        "no": .boolean(false),
        "bytes": .data(Array(0..<40)),
        "list": .array((0..<20).map { .string("item \($0)") }),
        "nested": .dictionary(["Car": .data([UInt8](repeating: 7, count: 32))]),
    ])

    @Test("Foundation reads back every value written")
    func roundTrip() throws {
        let bytes = BinaryPropertyListWriter.encode(Self.sample)
        #expect(bytes.starts(with: Array("bplist00".utf8)))
        var format = PropertyListSerialization.PropertyListFormat.xml
        let decoded = try #require(try PropertyListSerialization.propertyList(from: Data(bytes), format: &format) as? [String: Any])
        #expect(format == .binary)
        #expect(decoded["ascii"] as? String == "SQLite")
        #expect(decoded["unicode"] as? String == "Spielstätte Łódź ⚽️")
        #expect(decoded["empty"] as? String == "")
        #expect((decoded["small"] as? NSNumber)?.intValue == 3)
        #expect((decoded["medium"] as? NSNumber)?.intValue == 1327)
        #expect((decoded["large"] as? NSNumber)?.int64Value == 5_000_000_000)
        #expect((decoded["negative"] as? NSNumber)?.intValue == -42)
        #expect((decoded["real"] as? NSNumber)?.doubleValue == 2.5)
        #expect(decoded["yes"] as? Bool == true)
        #expect(decoded["no"] as? Bool == false)
        #expect(decoded["bytes"] as? Data == Data(0..<40))
        #expect((decoded["list"] as? [String])?.count == 20)
        #expect((decoded["list"] as? [String])?.last == "item 19")
        #expect((decoded["nested"] as? [String: Data])?["Car"] == Data(repeating: 7, count: 32))
    }

    @Test("the same value always gives the same bytes, with keys in byte order")
    func deterministic() {
        let first = BinaryPropertyListWriter.encode(Self.sample)
        for _ in 0..<5 {
            #expect(BinaryPropertyListWriter.encode(Self.sample) == first)
        }
        // Object 1 is the first key: "ascii" sorts before every other key.
        let twoKeys = BinaryPropertyListWriter.encode(.dictionary(["b": .integer(1), "a": .integer(2)]))
        #expect(Array(twoKeys[8..<16]) == [0xD2, 1, 2, 3, 4, 0x51, UInt8(ascii: "a"), 0x51])
    }

    /// A random value of every kind, keyed archives' UIDs among them (of 1 to 4 bytes).
    static func value(_ rng: inout SplitMix64, depth: Int) -> PropertyListValue {
        let pieces = ["a", "Z", " ", "é", "日本", "🍸", "$null", "\u{0}"]
        func text() -> String { (0..<Int(rng.next() % 4)).map { _ in pieces[Int(rng.next() % UInt64(pieces.count))] }.joined() }
        switch rng.next() % (depth > 0 ? 9 : 7) {
        case 0: return .string(text())
        case 1: return .integer(Int64(bitPattern: rng.next()) >> Int64(rng.next() % 64))
        case 2:
            let real = Double(bitPattern: rng.next())
            return .real(real.isFinite ? real : 0.5)
        case 3: return .boolean(rng.next() % 2 == 0)
        case 4: return .data((0..<Int(rng.next() % 20)).map { _ in UInt8(truncatingIfNeeded: rng.next()) })
        case 5: return .uid([0, 1, 255, 256, 65_535, 65_536, UInt64(Int32.max)][Int(rng.next() % 7)])
        case 6: return .date(Double(Int64(bitPattern: rng.next()) >> 30))
        case 7: return .array((0..<Int(rng.next() % 4)).map { _ in value(&rng, depth: depth - 1) })
        default:
            var entries: [String: PropertyListValue] = [:]
            for _ in 0..<Int(rng.next() % 4) { entries[text()] = value(&rng, depth: depth - 1) }
            return .dictionary(entries)
        }
    }

    @Test("random values of every kind, UIDs among them, read back as written")
    func randomRoundTrip() throws {
        var rng = SplitMix64(seed: 0xB9_1157)
        for _ in 0..<500 {
            let value = Self.value(&rng, depth: 3)
            #expect(try PropertyListValue(decoding: BinaryPropertyListWriter.encode(value)) == value, "\(value)")
        }
        // A UID past what a reader takes is refused, not cut.
        #expect(throws: BinaryPropertyList.Failure.self) { try PropertyListValue(decoding: BinaryPropertyListWriter.encode(.uid(UInt64(Int32.max) + 1))) }
    }
}
