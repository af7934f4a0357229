import Foundation
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
}
