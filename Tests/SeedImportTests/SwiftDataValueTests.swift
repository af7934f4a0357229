import Foundation
import SeedModel
import SeedStore
import SeedgenTestSupport
import Testing
@testable import SeedImport

/// SwiftData values as properties: an array given as a tree becomes JSON text that reads back
/// as the same tree, an array's stored bytes give text that stores the same bytes again, and an
/// enum takes exactly its cases (a raw value, else a case's name) and refuses anything else.
@Suite("SwiftData values: round trips")
struct SwiftDataValueTests {
    static let cases = PropertyCases.count(makeTest: 300)
    static let place = InputLocation(file: "t.json", line: 1, column: 1)
    /// Pieces of strings: quotes, back slashes, control characters, a slash, non-ASCII (an "é"
    /// composed and decomposed), JSON's words.
    static let pieces = ["a", "Z", " ", "\"", "\\", "/", "\n", "\t", "\u{0}", "\u{1F}", "\u{7F}", "é", "e\u{301}", "日本", "🍸", "null", "true", "[", "{", "$null"]

    static func text(_ rng: inout SplitMix64) -> String {
        (0..<Int(rng.next() % 5)).map { _ in pieces[Int(rng.next() % UInt64(pieces.count))] }.joined()
    }

    /// A JSON number every reader holds exactly: an integer within ±2^53, or one with a binary
    /// fraction (`-12.375`), in plain or exponent form.
    static func number(_ rng: inout SplitMix64) -> String {
        let whole = Int64(bitPattern: rng.next()) >> 11
        switch rng.next() % 3 {
        case 0: return String(whole)
        case 1: return "\(whole % 1000).\(["5", "25", "375", "0625"][Int(rng.next() % 4)])"
        default: return "\(whole % 100)e\(rng.next() % 4)"
        }
    }

    /// A tree of JSON's kinds, at most `depth` containers deep.
    static func node(_ rng: inout SplitMix64, depth: Int) -> SourceNode {
        switch rng.next() % (depth > 0 ? 7 : 5) {
        case 0: return .scalar(text(&rng), kind: .string, place)
        case 1: return .scalar(number(&rng), kind: .integer, place)
        case 2: return .scalar("", kind: rng.next() % 2 == 0 ? .true : .false, place)
        case 3: return .scalar("", kind: .null, place)
        case 4: return .scalar(text(&rng), kind: .key, place)
        case 5: return .array(SourceItems((0..<Int(rng.next() % 4)).map { _ in node(&rng, depth: depth - 1) }), place)
        default:
            // Keys distinct, as a reader gives them.
            let keys = Set((0..<Int(rng.next() % 4)).map { _ in text(&rng) })
            return .dictionary(keys.sorted().map { ($0, node(&rng, depth: depth - 1)) }, place)
        }
    }

    /// Whether Foundation's reading of JSON text is the tree.
    static func matches(_ read: Any, _ node: SourceNode) -> Bool {
        switch node {
        case .scalar(let text, let kind, _):
            switch kind {
            case .string, .key: return read as? String == text
            case .true, .false: return (read as? NSNumber).map { $0.boolValue == (kind == .true) } ?? false
            case .null: return read is NSNull
            default: return (read as? NSNumber)?.doubleValue == Double(text)
            }
        case .array(let items, _):
            guard let array = read as? [Any], array.count == items.count else { return false }
            return zip(array, items).allSatisfy { matches($0, $1) }
        case .dictionary(let entries, _):
            guard let object = read as? [String: Any], object.count == entries.count else { return false }
            return entries.allSatisfy { entry in object[entry.key].map { matches($0, entry.value) } ?? false }
        }
    }

    @Test("a [String] given as an array of strings (straight to its archive) stores exactly what its JSON text stores; $null is refused either way")
    func stringArrayPathsAgree() throws {
        var rng = SplitMix64(seed: 0x57_A77A)
        for _ in 0..<Self.cases {
            let strings = (0..<Int(rng.next() % 6)).map { _ in Self.text(&rng) }
            let items = SourceItems(strings.map { .scalar($0, kind: .string, Self.place) })
            let text = try SourceNode.array(items, Self.place).jsonText(.json)
            if let archive = StringArrayArchive.archive(try #require(items.compactStrings, "strings are held compactly")) {
                #expect(try SwiftDataArrayText.stored(text, as: .stringArray) == archive, "\(strings)")
            } else {
                #expect(strings.contains(StringArrayArchive.unarchivable))
                #expect(throws: SwiftDataArrayText.Refusal.unarchivable) { try SwiftDataArrayText.stored(text, as: .stringArray) }
            }
        }
    }

    @Test("a tree of any JSON kinds as JSON text: Foundation reads back the same values, and storing that text as an array inside a struct keeps it byte for byte")
    func jsonText() throws {
        var rng = SplitMix64(seed: 0x15_0A77)
        for _ in 0..<Self.cases {
            let tree = SourceNode.array(SourceItems((0..<Int(rng.next() % 4)).map { _ in Self.node(&rng, depth: 3) }), Self.place)
            let text = try tree.jsonText(.json)
            let read = try JSONSerialization.jsonObject(with: Data(text))
            #expect(Self.matches(read, tree), "\(String(decoding: text, as: UTF8.self))")
            let stored = try SwiftDataArrayText.stored(text, as: .jsonArray)
            #expect(stored == text)
            #expect(SwiftDataArrayText.text(of: stored, as: .jsonArray).map { Array($0.utf8) } == text, "a dump gives the text again")
        }
    }

    @Test("a number is JSON's exactly when Foundation's reader takes it", arguments: [
        "0", "-0", "12", "-12", "1.5", "1e3", "1E+3", "1e-3", "0.0", "-0.5e10",
        "01", "+1", "1.", ".5", "1e", "1e+", "--1", "0x1", "1_000", "inf", "NaN", "-", "1.5.5",
    ])
    func jsonNumbers(_ text: String) throws {
        let foundation = (try? JSONSerialization.jsonObject(with: Data("[\(text)]".utf8))) != nil
        #expect(SourceNode.isJSONNumber(text) == foundation, "\(text)")
        #expect(!SourceNode.isJSONNumber(""))
    }

    @Test("a [String] as JSON text: stored as its archive, whose text stores the same bytes again; $null and other kinds refused by name")
    func stringArrays() throws {
        var rng = SplitMix64(seed: 0x57A1_4A)
        for _ in 0..<Self.cases {
            let strings = (0..<Int(rng.next() % 6)).map { _ in Self.text(&rng) }
            let json = try JSONSerialization.data(withJSONObject: strings)
            guard !strings.contains(StringArrayArchive.unarchivable) else {
                #expect(throws: SwiftDataArrayText.Refusal.unarchivable) { try SwiftDataArrayText.stored(json, as: .stringArray) }
                continue
            }
            let stored = try SwiftDataArrayText.stored(json, as: .stringArray)
            #expect(StringArrayArchive.strings(in: stored) == strings)
            let text = try #require(SwiftDataArrayText.text(of: stored, as: .stringArray))
            #expect(try SwiftDataArrayText.stored(Array(text.utf8), as: .stringArray) == stored, "\(strings)")
        }
        #expect(throws: SwiftDataArrayText.Refusal.notStrings) { try SwiftDataArrayText.stored(Array(#"["a", 1]"#.utf8), as: .stringArray) }
        #expect(throws: SwiftDataArrayText.Refusal.notAnArray) { try SwiftDataArrayText.stored(Array(#"{"a": 1}"#.utf8), as: .stringArray) }
        #expect(throws: SwiftDataArrayText.Refusal.notAnArray) { try SwiftDataArrayText.stored(Array("[1".utf8), as: .jsonArray) }
    }

    @Test("an enum takes a raw value, else a case's name, stored as the raw value; any other text is refused naming the cases")
    func enumCases() throws {
        var rng = SplitMix64(seed: 0xE_4_0)
        for _ in 0..<Self.cases {
            let isText = rng.next() % 2 == 0
            // Raw values may be another case's name (`a = "b"`): the raw value wins.
            let names = (0..<Int(rng.next() % 4 + 1)).map { "c\($0)" }
            let raws: [String] = names.indices.map { index in
                isText ? (rng.next() % 3 == 0 ? names[Int(rng.next() % UInt64(names.count))] : "v \(index)\(Self.text(&rng))") : String(Int(index) * 7 - 5)
            }
            let cases = zip(names, raws).reduce(into: [DeclaredValue.EnumCase]()) { found, pair in
                if !found.contains(where: { $0.rawValue == pair.1 }) { found.append(.init(name: pair.0, rawValue: pair.1)) }
            }
            var element = AttributeDescription(name: "e", type: isText ? .string : .integer64, isOptional: true)
            element.declaredValue = .enumeration(cases)
            let converter = try ValueConverter(attribute: element)
            let stored = { (raw: String) -> SQLValue in isText ? .text(raw) : .integer(Int64(raw)!) }
            for member in cases {
                #expect(try converter.convert(member.rawValue!) == stored(member.rawValue!))
                let byName = cases.first { $0.rawValue == member.name } ?? member
                #expect(try converter.convert(member.name) == stored(byName.rawValue!), "\(cases)")
            }
            let other = isText ? "x\(Self.text(&rng))" : "1000"
            let error = #expect(throws: ConversionFailure.self) { try converter.convert(other) }
            #expect(error?.description.contains("is no case of the enum") == true && error?.description.contains(cases[0].name) == true)
        }
    }
}
