import SeedgenTestSupport
import Testing
@testable import SeedImport

/// An array's items read back as the nodes they were given as, whether held compactly (every
/// item a string) or as nodes, and whatever turns the compact form into nodes.
@Suite("SourceItems")
struct SourceItemsTests {
    static let pieces = ["a", "", " ", "é", "e\u{301}", "日本", "🍸", "\u{0}", "\"", "label-"]
    /// Lines and columns on both sides of what the compact form holds (2³² - 1).
    static let places = [0, 1, 77, Int(UInt32.max), Int(UInt32.max) + 1, Int.max]

    static func node(_ rng: inout SplitMix64, depth: Int) -> SourceNode {
        let location = InputLocation(file: rng.next() % 12 == 0 ? "other.json" : "a.json",
                                     line: places[Int(rng.next() % 100 < 90 ? rng.next() % 3 : rng.next() % 6)],
                                     column: places[Int(rng.next() % 100 < 90 ? rng.next() % 3 : rng.next() % 6)])
        let text = (0..<Int(rng.next() % 4)).map { _ in pieces[Int(rng.next() % UInt64(pieces.count))] }.joined()
        switch rng.next() % 12 {
        case 0: return .scalar(text, kind: .integer, location)
        case 1: return .scalar(text, kind: .key, location)
        case 2 where depth > 0: return .array(SourceItems((0..<Int(rng.next() % 3)).map { _ in node(&rng, depth: depth - 1) }), location)
        case 3 where depth > 0: return .dictionary([(text, node(&rng, depth: depth - 1))], location)
        default: return .scalar(text, kind: .string, location)
        }
    }

    /// The node's kind, bytes and places, nested: equal exactly when the nodes are.
    static func fingerprint(_ node: SourceNode) -> String {
        switch node {
        case .scalar(let text, let kind, let location): "\(kind)\(Array(text.utf8))@\(location.file):\(location.line):\(location.column)"
        case .array(let items, let location): "[\(items.map(fingerprint).joined(separator: ","))]@\(location)"
        case .dictionary(let entries, let location): "{\(entries.map { "\(Array($0.key.utf8)):\(fingerprint($0.value))" }.joined(separator: ","))}@\(location)"
        }
    }

    @Test("random lists read back item by item as given (kinds, bytes, files, lines and columns past 2^32); the compact form holds exactly the lists of strings it can place")
    func roundTrip() throws {
        var rng = SplitMix64(seed: 0x5_0CE1)
        var compact = 0
        for _ in 0..<PropertyCases.count(makeTest: 600) {
            let nodes = (0..<Int(rng.next() % 8)).map { _ in Self.node(&rng, depth: 2) }
            var items = SourceItems()
            for node in nodes { items.append(node) }
            #expect(items.count == nodes.count)
            #expect(items.map(Self.fingerprint) == nodes.map(Self.fingerprint))
            let placeable = nodes.allSatisfy { node in
                guard case .scalar(_, .string, let location) = node else { return false }
                return location.file == nodes[0].location.file && location.line <= Int(UInt32.max) && location.column <= Int(UInt32.max)
            }
            #expect((items.compactStrings != nil) == placeable, "\(nodes.map(Self.fingerprint))")
            if let strings = items.compactStrings {
                compact += 1
                #expect(strings.map { Array($0.utf8) } == nodes.map { node -> [UInt8] in
                    guard case .scalar(let text, _, _) = node else { return [] }
                    return Array(text.utf8)
                })
            }
        }
        #expect(compact > 20, "the compact form was exercised")
    }
}
