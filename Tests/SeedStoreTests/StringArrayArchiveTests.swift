import Foundation
import SeedgenTestSupport
import Testing
@testable import SeedStore

/// A SwiftData `[String]` is stored as `NSSecureUnarchiveFromData`'s keyed archive; seedgen
/// writes that archive itself, deterministically, and Foundation's own unarchiver must read it.
@Suite("StringArrayArchive")
struct StringArrayArchiveTests {
    /// Foundation's reading of an archive, as the transformer reads it (secure coding, NSArray of NSString).
    static func unarchived(_ bytes: [UInt8]) throws -> [String]? {
        try NSKeyedUnarchiver.unarchivedObject(ofClasses: [NSArray.self, NSString.self], from: Data(bytes)) as? [String]
    }

    @Test("random arrays of strings: Foundation's unarchiver reads back the same strings, the archive reads back, the same bytes every time")
    func roundTrip() throws {
        var random = SplitMix64(seed: 0x5eed_a7c4)
        let alphabet: [String] = ["a", "b", "Z", " ", "é", "ß", "日本", "🍸", "\"", "\\", "\n", "\u{0}", "$null", "NSArray", "ffi"]
        for _ in 0..<200 {
            let count = Int(random.next() % 9)
            let strings = (0..<count).map { _ in
                (0..<Int(random.next() % 6)).map { _ in alphabet[Int(random.next() % UInt64(alphabet.count))] }.joined()
            }
            guard let bytes = StringArrayArchive.archive(strings) else {
                #expect(strings.contains("$null"), "\(strings)")
                continue
            }
            #expect(try Self.unarchived(bytes) == strings, "\(strings)")
            #expect(StringArrayArchive.strings(in: bytes) == strings)
            #expect(StringArrayArchive.archive(strings) == bytes)
        }
    }

    @Test("strings equal to Swift but not byte for byte (an \"é\" composed and decomposed) are two objects: each reads back with its own bytes")
    func canonicallyEquivalentStrings() throws {
        let strings = ["\u{E9}", "e\u{301}", "\u{E9}", "\u{212B}", "\u{C5}"]  // é, é, é, Å (Ångström sign), Å
        #expect(strings[0] == strings[1], "Swift's == calls them equal")
        let bytes = try #require(StringArrayArchive.archive(strings))
        #expect(StringArrayArchive.strings(in: bytes)?.map { Array($0.utf8) } == strings.map { Array($0.utf8) })
        #expect(try Self.unarchived(bytes)?.map { Array($0.utf8) } == strings.map { Array($0.utf8) })
        let list = try #require(UTF8StringList(strings))
        #expect(list.count == 5 && list.map { Array($0.utf8) } == strings.map { Array($0.utf8) })
        #expect(!list.bytesEqual(0, 1) && list.bytesEqual(0, 2) && !list.bytesEqual(3, 4))
    }

    @Test("the archive written object by object is byte for byte the writer's encoding of its property list, across 1-, 2- and 4-byte references and offsets")
    func streamEqualsWriter() throws {
        var random = SplitMix64(seed: 0xa7c4_5eed)
        let alphabet: [String] = ["a", "b", "é", "🍸", "x y", ""]
        var cases: [[String]] = (0..<100).map { _ in
            (0..<Int(random.next() % 300)).map { _ in
                (0..<Int(random.next() % 4)).map { _ in alphabet[Int(random.next() % UInt64(alphabet.count))] }.joined()
            }
        }
        cases.append([])
        cases.append((0..<40_000).map { "s\($0 % 30_000)" })  // past 65,535 objects and bytes
        for strings in cases {
            let written = try #require(StringArrayArchive.archive(strings))
            #expect(written == BinaryPropertyListWriter.encode(StringArrayArchive.propertyList(of: strings)), "\(strings.count) strings")
        }
    }

    @Test("a list of 150,000 strings (past what a property list read whole may expand to) reads back from its archive, for a dump")
    func longList() throws {
        let strings = (0..<150_000).map { "label-\($0)" }
        let bytes = try #require(StringArrayArchive.archive(strings))
        #expect(StringArrayArchive.strings(in: bytes) == strings)
        #expect(try Self.unarchived(bytes) == strings)
    }

    @Test("bytes that are not exactly seedgen's archive of some strings are none: a dump gives them as they are")
    func foreignBytes() throws {
        let foundation = try NSKeyedArchiver.archivedData(withRootObject: ["a", "b"] as NSArray, requiringSecureCoding: true)
        let ours = try #require(StringArrayArchive.archive(["a", "b"]))
        #expect(StringArrayArchive.archive(["$null"]) == nil, "Foundation reads the string $null back as nothing")
        #expect([UInt8](foundation) == ours ? StringArrayArchive.strings(in: [UInt8](foundation)) == ["a", "b"] : StringArrayArchive.strings(in: [UInt8](foundation)) == nil)
        var changed = ours
        changed[changed.count / 2] ^= 0x01
        #expect(StringArrayArchive.strings(in: changed) == nil)
        #expect(StringArrayArchive.strings(in: Array("not a plist".utf8)) == nil)
        #expect(StringArrayArchive.strings(in: []) == nil)
    }
}
