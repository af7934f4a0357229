import SeedStore
import Testing
@testable import SeedImport

@Suite("Key index")
struct KeyIndexTests {
    /// The candidates of a hash, in probing order.
    static func candidates(_ index: KeyIndex, _ hash: UInt64) throws -> [Int64] {
        var found: [Int64] = []
        try index.candidates(hash) { candidate in
            found.append(candidate)
            return false
        }
        return found
    }

    @Test("keys with one fingerprint (the hash's upper 40 bits) are all candidates, the repository confirms each; others are not")
    func collidingFingerprints() throws {
        let index = KeyIndex()
        let fingerprint: UInt64 = 0x1234_5678 << 32
        index.insert(fingerprint | 1, primaryKey: 7)
        index.insert(fingerprint | 2, primaryKey: 9)
        index.insert(0x7654_3210 << 32, primaryKey: 11)
        #expect(try Self.candidates(index, fingerprint | 3) == [7, 9])
        #expect(try Self.candidates(index, 0x7654_3210 << 32) == [11])
        #expect(try Self.candidates(index, 0x1111_1111 << 32).isEmpty)
    }

    /// A 10M-key import met 11,600 false candidates with 32-bit fingerprints, each a query that
    /// waited for the row stream; 40 bits make that about 45.
    @Test("hashes that share their upper 32 bits but differ in the next 8 are not each other's candidates")
    func fortyBitFingerprints() throws {
        let index = KeyIndex()
        let upper: UInt64 = 0x1234_5678 << 32
        index.insert(upper | 0x01 << 24, primaryKey: 7)
        index.insert(upper | 0xFF << 24 | 0xAB, primaryKey: 9)
        #expect(try Self.candidates(index, upper | 0x02 << 24).isEmpty)
        #expect(try Self.candidates(index, upper | 0x01 << 24 | 0xFF_FFFF) == [7])
        #expect(try Self.candidates(index, upper | 0xFF << 24) == [9])
    }

    static func key(_ text: String) -> KeyBytes {
        var key = KeyBytes()
        key.set([.text(text)])
        return key
    }

    @Test("keys filed in ascending order wait outside the slots; a key below them, or a lookup, places them and each is found")
    func ascendingRun() throws {
        let index = KeyIndex()
        let keys = (0..<5_000).map { Self.key(String(format: "K%05d", $0)) }
        for (offset, key) in keys.enumerated() { index.insert(key, primaryKey: Int64(offset + 1)) }
        #expect(index.isAscending && index.isAboveRun(Self.key("K99999")) && index.isAboveRun(Self.key("K000000")) && !index.isAboveRun(Self.key("K9")))
        #expect(!index.isAboveRun(keys[4_999]) && !index.isAboveRun(keys[0]) && !index.isAboveRun(Self.key("A")))
        index.insert(Self.key("A"), primaryKey: 5_001)
        #expect(!index.isAscending && !index.isAboveRun(Self.key("Z")))
        let missed = try keys.indices.filter { try Self.candidates(index, keys[$0].hash) != [Int64($0 + 1)] }
        #expect(missed.isEmpty, "\(missed.count) of the run's keys not found")
        #expect(try Self.candidates(index, Self.key("A").hash) == [5_001])

        let looked = KeyIndex()
        looked.insert(keys[0], primaryKey: 1)
        looked.insert(keys[1], primaryKey: 2)
        #expect(try Self.candidates(looked, keys[1].hash) == [2])
        #expect(!looked.isAscending)
    }

    @Test("every key stays findable as the table doubles, and no key finds another's object")
    func growth() throws {
        let index = KeyIndex()
        var hasher = SystemRandomNumberGenerator()
        let hashes = (1...10_000).map { _ in hasher.next() as UInt64 }
        for (offset, hash) in hashes.enumerated() { index.insert(hash, primaryKey: Int64(offset + 1)) }
        for (offset, hash) in hashes.enumerated() {
            #expect(try Self.candidates(index, hash).contains(Int64(offset + 1)))
        }
        let strays = try (0..<1_000).filter { _ in try !Self.candidates(index, hasher.next()).isEmpty }
        #expect(strays.count <= 1, "a fresh 40-bit fingerprint matched \(strays.count) times")
    }
}
