import Foundation
import SeedgenTestSupport
import Testing
@testable import SeedStore

/// `seedgen_key_part` writes the words of the keys installed stores' records hold: a store
/// installed by an earlier seedgen named its objects with SQL's `CASE typeof(…)`, `hex()` and
/// `printf('%!.17g')`, so the function must give the same text for every value, or an update
/// would find every object of the store gone and every object of the seed new.
@Suite("A key's words")
struct KeyPartTests {
    /// The words as SQL wrote them before the function existed, the reference.
    static let referenceSQL = """
        SELECT CASE typeof(?1) WHEN 'integer' THEN 'i' || ?1 WHEN 'real' THEN 'r' || printf('%!.17g', ?1) \
        WHEN 'text' THEN 't' || hex(?1) WHEN 'blob' THEN 'b' || hex(?1) ELSE 'n' END
        """

    @Test("every class at its edges and at random gives the words SQL's typeof, hex and printf gave")
    func sameWordsAsSQL() throws {
        // Opened plainly: every connection has the function.
        let database = try Database(path: ":memory:", mode: .create)
        var random = SplitMix64(seed: 0x6b6579)
        let texts = ["", "\0", "a\0b", "É", "E\u{301}", "🦊", "SKU-00000001", String(repeating: "xé", count: 3000)]
        let reals: [Double] = [0, -0.0, 1.5, 0.1, -1e-300, 1e300, 123456789012345680, .leastNonzeroMagnitude,
                               .leastNormalMagnitude, .greatestFiniteMagnitude, .infinity, -.infinity, .pi]
        let integers: [Int64] = [.min, .min + 1, -1, 0, 1, 9, 10, .max]
        var values: [SQLValue] = [.null] + texts.map(SQLValue.text) + reals.map(SQLValue.real) + integers.map(SQLValue.integer)
            + [.blob([]), .blob([0]), .blob([0xFF, 0x00, 0xAB]), .blob(Array(0...255))]
        for _ in 0..<PropertyCases.count(makeTest: 3000) {
            switch Int.random(in: 0..<4, using: &random) {
            case 0: values.append(.integer(Int64.random(in: .min ... .max, using: &random)))
            case 1:
                // Any finite double, bit pattern at random (NaN SQLite binds as NULL).
                let real = Double(bitPattern: UInt64.random(in: 0 ... .max, using: &random))
                values.append(.real(real.isNaN ? 0.25 : real))
            case 2:
                let scalars = (0..<Int.random(in: 0...12, using: &random)).compactMap { _ in
                    Unicode.Scalar(UInt32([0, 0x41, 0xE9, 0x4E2D, 0x1F98A].randomElement(using: &random)!) + UInt32.random(in: 0...3, using: &random))
                }
                values.append(.text(String(String.UnicodeScalarView(scalars))))
            default:
                values.append(.blob((0..<Int.random(in: 0...40, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }))
            }
        }
        for value in values {
            let words = try database.scalar("SELECT seedgen_key_part(?1)", [value])?.text
            let reference = try database.scalar(Self.referenceSQL, [value])?.text
            #expect(words != nil && words == reference, "\(value)")
        }
    }

    @Test("a word read back is the value it was made of")
    func wordsReadBack() throws {
        let database = try Database(path: ":memory:", mode: .create)
        let values: [SQLValue] = [.null, .integer(.min), .integer(42), .real(-0.5), .real(1e-300), .text("a\0é🦊"), .blob([0, 0xFF])]
        for value in values {
            let words = try #require(try database.scalar("SELECT seedgen_key_part(?1)", [value])?.text)
            #expect(ObjectNames.value(ofPart: words).isIdentical(to: value), "\(value) as \(words)")
        }
    }
}
