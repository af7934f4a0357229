import Testing
import SeedStore
import SeedgenTestSupport
@testable import SeedImport

@Suite("Key table")
struct KeyTableTests {
    static func key(_ values: SQLValue...) -> KeyBytes {
        var key = KeyBytes()
        key.set(values)
        return key
    }

    @Test("a key's bytes are the store's value: an integral REAL is the INTEGER it equals, text and blobs keep their length")
    func canonicalBytes() {
        #expect(Self.key(.real(12.0)).bytes == Self.key(.integer(12)).bytes)
        #expect(Self.key(.real(-0.0)).bytes == Self.key(.integer(0)).bytes)
        #expect(Self.key(.real(12.5)).bytes != Self.key(.integer(12)).bytes)
        #expect(Self.key(.text("ab"), .text("c")).bytes != Self.key(.text("a"), .text("bc")).bytes)
        #expect(Self.key(.text("12")).bytes != Self.key(.integer(12)).bytes)
        #expect(Self.key(.blob([1, 2])).bytes != Self.key(.text("\u{1}\u{2}")).bytes)
        let long = String(repeating: "x", count: 300)
        #expect(KeyBytes.values(Self.key(.text(long), .integer(-7), .real(2.5), .blob([9])).bytes[...])
                == [.text(long), .integer(-7), .real(2.5), .blob([9])])
    }

    @Test("a key's bytes keep its values' order: integers and reals of either sign, text of one length; and read back as they were")
    func orderedBytes() {
        var random = SplitMix64(seed: 42)
        func precedes(_ left: SQLValue, _ right: SQLValue) -> Bool {
            Self.key(left).bytes.lexicographicallyPrecedes(Self.key(right).bytes)
        }
        for _ in 0..<10_000 {
            let (a, b) = (Int64(bitPattern: random.next()), Int64(bitPattern: random.next()) >> (random.next() % 64))
            #expect(precedes(.integer(a), .integer(b)) == (a < b), "\(a), \(b)")
            let (x, y) = (Double(a) / 7.5 + 0.25, Double(b) / 3.5 + 0.125)
            if x.rounded() != x, y.rounded() != y {
                #expect(precedes(.real(x), .real(y)) == (x < y), "\(x), \(y)")
            }
            #expect(KeyBytes.values(Self.key(.integer(a), .real(x)).bytes[...]) == [.integer(a), x.rounded() == x && abs(x) < 0x1p63 ? .integer(Int64(x)) : .real(x)])
        }
        #expect(precedes(.integer(255), .integer(256)) && precedes(.integer(-1), .integer(0)) && precedes(.real(-0.5), .real(0.5)))
        #expect(precedes(.text("SKU-009"), .text("SKU-010")) && !precedes(.text("b"), .text("a")))
    }

    static func reservations(_ table: KeyTable) -> [(offset: Int, reservation: KeyTable.Reservation)] {
        var all: [(offset: Int, reservation: KeyTable.Reservation)] = []
        table.forEachReservation { all.append(($0, $1)) }
        return all
    }

    @Test("written and reserved keys are found exactly through growth; a reserved key takes its object later")
    func reserveThenWrite() throws {
        var table = KeyTable()
        let reservation = KeyTable.Reservation(location: InputLocation(file: "a.xml", line: 3, column: 5), via: "Product.supplier", destination: 2)
        for number in 1...5_000 {
            if number.isMultiple(of: 2) {
                table.add(Self.key(.text("S\(number)")), primaryKey: Int64(number), entityNumber: 3)
            } else {
                table.add(Self.key(.text("S\(number)")), primaryKey: Int64(number), reservation: reservation)
            }
        }
        #expect(Self.reservations(table).count == 2_500)
        for number in 1...5_000 {
            let found = try #require(table.find(Self.key(.text("S\(number)"))))
            #expect(found.primaryKey == Int64(number))
            #expect(found.isReserved == !number.isMultiple(of: 2))
        }
        #expect(table.find(Self.key(.text("S5001"))) == nil)
        #expect(table.find(Self.key(.text("S1"), .text(""))) == nil)
        let reserved = try #require(table.find(Self.key(.text("S7"))))
        #expect(table.reservation(reserved).via == "Product.supplier")
        table.write(reserved, primaryKey: 7, entityNumber: 4)
        let written = try #require(table.find(Self.key(.text("S7"))))
        #expect(!written.isReserved && written.entityNumber == 4 && written.primaryKey == 7)
        #expect(Self.reservations(table).count == 2_499)
        let left = try #require(Self.reservations(table).min { $0.offset < $1.offset })
        #expect(table.key(at: left.offset) == [.text("S1")])
        #expect(left.reservation.location == reservation.location && left.reservation.destination == 2)
        table.narrow(try #require(table.find(Self.key(.text("S3")))), to: 5)
        #expect(table.reservation(try #require(table.find(Self.key(.text("S3"))))).destination == 5)
    }

    /// An input can be crafted so that all its keys share a fingerprint under a hash it knows:
    /// every lookup then probes past all the others (quadratic time). Integer keys are crafted
    /// here by inverting the unseeded hash (seed 0); under the process's seed they spread.
    @Test("keys crafted to share a fingerprint under the unseeded hash do not share one under the build's")
    func craftedCollisionsSpread() throws {
        func inverseXorShift(_ value: UInt64, _ shift: UInt64) -> UInt64 {
            var result = value
            for _ in 0..<(64 / shift) { result = value ^ (result >> shift) }
            return result
        }
        let multiplier: UInt64 = 0xBF58_476D_1CE4_E5B9
        var inverse = multiplier
        for _ in 0..<6 { inverse = inverse &* (2 &- multiplier &* inverse) }
        func inverseMix(_ value: UInt64) -> UInt64 { inverseXorShift(value, 31) &* inverse }
        var crafted: [KeyBytes] = []
        var candidate: UInt64 = 0
        while crafted.count < 500 {
            candidate += 1
            // hash = mix(h2 ^ h2 >> 29), h2 = mix(h1 ^ tail), h1 = mix(start ^ word); 9 bytes: kind 1
            // and the integer's 8, big-endian with the sign bit turned over: the word holds the
            // kind and the top 7 (read little-endian), the tail is the low byte, here 0.
            let h2 = inverseXorShift(inverseMix(0x5EED_C0DE << 32 | candidate), 29)
            let word = inverseMix(inverseMix(h2)) ^ 0x9E37_79B9_7F4A_7C15 ^ 9
            guard word & 0xFF == 1 else { continue }
            crafted.append(Self.key(.integer(Int64(bitPattern: (word >> 8).byteSwapped ^ 1 << 63))))
        }
        #expect(crafted.allSatisfy { KeyBytes.hash(of: $0.bytes, seed: 0) >> 32 == 0x5EED_C0DE })
        #expect(Set(crafted.map { $0.hash >> 32 }).count >= 495)
    }
}
