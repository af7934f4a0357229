import Foundation
@testable import SeedImport
import SeedModel
import SeedgenTestSupport
import Testing

@Suite("Decimal text")
struct DecimalTextTests {
    /// glibc's answer: the bits, or nil when it does not take the whole text.
    static func strtodWhole(_ text: String) -> Double? {
        text.withCString { start in
            var end: UnsafeMutablePointer<CChar>?
            let value = strtod(start, &end)
            let first = UnsafeMutablePointer(mutating: start)
            return end != first && end == first + text.utf8.count ? value : nil
        }
    }

    /// Text in the reader's alphabet, mostly plain decimals as seeds hold them, some of them
    /// past what the fast path takes (long, large exponents), some malformed.
    static func text(_ random: inout SplitMix64) -> String {
        func digits(_ count: Int) -> String {
            String((0..<count).map { _ in Character(String(Int.random(in: 0...9, using: &random))) })
        }
        var text = ["", "", "-", "+"].randomElement(using: &random)!
        let whole = Int.random(in: 0...(Bool.random(using: &random) ? 6 : 24), using: &random)
        text += digits(whole)
        if Int.random(in: 0..<4, using: &random) > 0 {
            text += "." + digits(Int.random(in: 0...(Bool.random(using: &random) ? 8 : 24), using: &random))
        }
        if Int.random(in: 0..<4, using: &random) == 0 {
            let exponent = Bool.random(using: &random) ? Int.random(in: -30...30, using: &random) : Int.random(in: -400...400, using: &random)
            text += (Bool.random(using: &random) ? "e" : "E") + (exponent >= 0 && Bool.random(using: &random) ? "+" : "") + String(exponent)
        }
        if Int.random(in: 0..<20, using: &random) == 0 {
            // Malformed now and then: a sign, point or exponent mark too many, or cut short.
            let marks = ["-", "+", ".", "e", "E", "e-", "1", "0"]
            let position = Int.random(in: 0...text.count, using: &random)
            text.insert(contentsOf: marks.randomElement(using: &random)!, at: text.index(text.startIndex, offsetBy: position))
        }
        return text
    }

    @Test("the fast path gives strtod's bits for every text it takes, and takes only text strtod takes whole; short decimals take it")
    func agreesWithStrtod() {
        var random = SplitMix64(seed: 0xdec1)
        var taken = 0, short = 0, shortTaken = 0
        for _ in 0..<100_000 {
            let text = Self.text(&random)
            let fast = Array(text.utf8).withUnsafeBufferPointer { DecimalText.exactDouble($0) }
            let reference = Self.strtodWhole(text)
            if let fast {
                taken += 1
                #expect(fast.bitPattern == reference?.bitPattern, "\(text): \(fast) against strtod's \(String(describing: reference))")
            }
            // Up to 15 significant digits and a small exponent: what the fast path is for.
            let significant = text.drop { !("1"..."9").contains($0) }.prefix { $0 != "e" && $0 != "E" }.filter(\.isNumber).count
            if reference != nil, significant <= 15, !text.contains("e"), !text.contains("E"), text.split(separator: ".").last.map({ $0.count <= 22 }) ?? true {
                short += 1
                if fast != nil { shortTaken += 1 }
            }
        }
        #expect(shortTaken == short, "\(short - shortTaken) of \(short) short decimals went to strtod")
        #expect(taken > 50000, "the fast path took only \(taken) of 100,000")
    }

    @Test("edges: signed zeros, 2^53, 10^22 and past them, lone marks")
    func edges() throws {
        let cases: [(String, Double?)] = [
            ("0", 0), ("-0", -0.0), ("-0.000", -0.0), ("+0e5", 0), ("9007199254740992", 9_007_199_254_740_992),
            ("9007199254740993", nil), ("1e22", 1e22), ("1e23", nil), ("1e-22", 1e-22), ("1e-23", nil),
            ("0.1", 0.1), (".5", 0.5), ("5.", 5), ("-12.456697", -12.456697), ("1.5E+3", 1500),
            (".", nil), ("e5", nil), ("1e", nil), ("1e+", nil), ("--1", nil), ("1.2.3", nil), ("", nil), ("+", nil),
            ("0000000000000000000000001.5", 1.5), ("1234567890123456789", nil),
        ]
        for (text, expected) in cases {
            let fast = Array(text.utf8).withUnsafeBufferPointer { DecimalText.exactDouble($0) }
            #expect(fast?.bitPattern == expected?.bitPattern, "\(text)")
        }
        // Through the converter, what the fast path leaves goes to strtod with the same answer.
        let converter = try ValueConverter(attribute: AttributeDescription(name: "a", type: .double))
        #expect(try converter.convert("9007199254740993") == .real(9_007_199_254_740_992))
        #expect(try converter.convert("1e23") == .real(1e23))
        #expect(try converter.convert("1234567890123456789") == .real(1_234_567_890_123_456_789))
    }
}
