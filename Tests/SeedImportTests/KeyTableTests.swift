import Testing
import SeedStore
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
        #expect(table.reservations().count == 2_500)
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
        #expect(table.reservations().count == 2_499)
        let left = try #require(table.reservations().first)
        #expect(table.key(at: left.offset) == [.text("S1")])
        #expect(left.reservation.location == reservation.location && left.reservation.destination == 2)
        table.narrow(try #require(table.find(Self.key(.text("S3")))), to: 5)
        #expect(table.reservation(try #require(table.find(Self.key(.text("S3"))))).destination == 5)
    }
}
