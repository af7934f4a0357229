import Foundation
import SeedModel
import SeedgenTestSupport
import Testing
@testable import SeedStore

/// `seedgen_digest` is the seed record's format: stores installed from an older seed hold its
/// digests, so the function must give the same bytes whatever its implementation.
@Suite("The row digest")
struct RowDigestTests {
    /// The digest as `Database+RowDigest.swift` documents it, written out again here.
    static func reference(_ values: [SQLValue]) -> [UInt8] {
        var input: [UInt8] = []
        func word(_ value: UInt64) { input += withUnsafeBytes(of: value.bigEndian, Array.init) }
        for value in values {
            switch value {
            case .null: input.append(5)
            case .integer(let integer): input.append(1); word(UInt64(bitPattern: integer))
            case .real(let real): input.append(2); word(real.bitPattern)
            case .text(let text): input.append(3); word(UInt64(text.utf8.count)); input += text.utf8
            case .blob(let blob): input.append(4); word(UInt64(blob.count)); input += blob
            }
        }
        return Array(SHA256.hash(data: input).prefix(16))
    }

    static func digest(_ values: [SQLValue], in database: Database) throws -> [UInt8] {
        let placeholders = Array(repeating: "?", count: values.count).joined(separator: ", ")
        return try database.scalar("SELECT seedgen_digest(\(placeholders))", values)?.blob ?? []
    }

    @Test("a known row digests to the bytes SHA-256 gives for its documented layout")
    func knownVector() throws {
        let database = try Database(path: ":memory:", mode: .create)
        database.registerRowDigest()
        let row: [SQLValue] = [.integer(1), .text("a"), .null, .real(0.5), .blob([])]
        // python3: sha256(b'\x01'+pack('>q',1)+b'\x03'+pack('>Q',1)+b'a'+b'\x05'+b'\x02'+pack('>d',0.5)+b'\x04'+pack('>Q',0))
        let expected = "1c76c7cd3a83df0901c45afd8c618100"
        #expect(try Self.digest(row, in: database).map { String(format: "%02x", $0) }.joined() == expected)
        #expect(Self.reference(row).map { String(format: "%02x", $0) }.joined() == expected)
    }

    @Test("generated rows at every class's edges, short and past the stack buffer, digest as documented")
    func generatedRows() throws {
        let database = try Database(path: ":memory:", mode: .create)
        database.registerRowDigest()
        var random = SplitMix64(seed: 0x5eed)
        let texts = ["", "\0", "a\0b", "É", "E\u{301}", "🦊", String(repeating: "x", count: 3000)]
        let reals: [Double] = [0, 1.5, -1e-300, .leastNonzeroMagnitude, .greatestFiniteMagnitude, .infinity, -.infinity]
        for _ in 0..<2000 {
            let row: [SQLValue] = (0..<Int.random(in: 1...40, using: &random)).map { _ in
                switch Int.random(in: 0..<5, using: &random) {
                case 0: .null
                case 1: .integer([Int64.min, -1, 0, 1, Int64.max, Int64.random(in: .min ... .max, using: &random)].randomElement(using: &random)!)
                case 2: .real(reals.randomElement(using: &random)!)
                case 3: .text(texts.randomElement(using: &random)!)
                default: .blob((0..<[0, 1, 16, 2500].randomElement(using: &random)!).map { _ in UInt8.random(in: 0...255, using: &random) })
                }
            }
            #expect(try Self.digest(row, in: database) == Self.reference(row), "\(row)")
        }
    }
}
