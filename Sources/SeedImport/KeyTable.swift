#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import SeedStore

/// The natural keys of one key-declaring entity tree that to-ones name by key, kept whole, with
/// the `Z_PK` each names: a reference finds its object here exactly, with no query and nothing to
/// check at the end. A key named before its object is written is *reserved*: it gets its `Z_PK`
/// at first sight (the next of its table), the referring rows are written with it, and the
/// object takes it when it comes; one never written is a dangling reference (`reservations`).
///
/// Open addressing, linear probing, at most 3/4 full. A slot is two words: the key's 32-bit
/// fingerprint and `Z_PK`, then where its bytes are in the arena and the `Z_ENT` of its object,
/// so a lookup reads one slot and one place of the arena. Memory per key: the key's bytes
/// (`KeyBytes`: its text and two bytes) and their count, and 21.3 to 42.7 bytes of slot; about
/// 50 bytes for a key of 15 characters. A reserved key also keeps where it was first named, in
/// 16 bytes of arena after its bytes.
struct KeyTable {
    /// A key's entry: the `Z_PK` it names and the `Z_ENT` of the object written with it, 0 while
    /// the key is reserved (`reservation(_:)`); valid until the next `add`.
    struct Found {
        fileprivate var slot: Int
        fileprivate var offset: Int
        var primaryKey: Int64
        var entityNumber: Int
        var isReserved: Bool { entityNumber == 0 }
    }

    /// Where a key was first named, by which to-one, and the entity its object must be (the
    /// narrowest destination of the to-ones that named it).
    struct Reservation {
        var location: InputLocation
        var via: String
        var destination: Int
    }

    /// Two words a slot (all zero: empty): fingerprint << 32 | `Z_PK`, then `Z_ENT` << 48 | offset.
    private var slots: [UInt64]
    private var shift: UInt64
    private var count = 0
    /// Each key's byte count (a variable-length number), then its bytes; for a key added
    /// reserved, then its reservation: file and via (numbers in `names`), line, column (4 bytes
    /// each) and destination (2 bytes, with 2 of via).
    private var arena: [UInt8] = []
    /// The files and to-ones reservations name, by number.
    private var names: [String] = []
    private var nameNumbers: [String: Int] = [:]

    init() {
        slots = Array(repeating: 0, count: 2 * 256)
        shift = 64 - 8
    }

    /// The entry of `key`, when it has one.
    func find(_ key: KeyBytes) -> Found? {
        let fingerprint = key.hash >> 32
        let mask = slots.count / 2 - 1
        var slot = place(of: fingerprint)
        return key.bytes.withUnsafeBytes { given in
            arena.withUnsafeBytes { arena in
                slots.withUnsafeBufferPointer { slots in
                    while slots[2 * slot] != 0 {
                        let first = slots[2 * slot], second = slots[2 * slot + 1]
                        if first >> 32 == fingerprint {
                            let offset = Int(second & 0xFFFF_FFFF_FFFF)
                            var start = offset
                            let count = KeyBytes.readCount(arena, &start)
                            if count == given.count, count == 0 || memcmp(arena.baseAddress! + start, given.baseAddress!, count) == 0 {
                                return Found(slot: slot, offset: offset, primaryKey: Int64(first & 0xFFFF_FFFF), entityNumber: Int(second >> 48))
                            }
                        }
                        slot = (slot + 1) & mask
                    }
                    return nil
                }
            }
        }
    }

    /// Where and how a reserved key was named.
    func reservation(_ found: Found) -> Reservation {
        reservation(at: found.offset)
    }

    /// Every key still reserved, by offset (the order they were first named in).
    func reservations() -> [(offset: Int, reservation: Reservation)] {
        stride(from: 0, to: slots.count, by: 2).compactMap { slot -> (Int, Reservation)? in
            guard slots[slot] != 0, slots[slot + 1] >> 48 == 0 else { return nil }
            let offset = Int(slots[slot + 1] & 0xFFFF_FFFF_FFFF)
            return (offset, reservation(at: offset))
        }.sorted { $0.0 < $1.0 }
    }

    private func reservation(at offset: Int) -> Reservation {
        let start = reservationStart(offset)
        func field(_ at: Int, _ width: Int) -> Int {
            (0..<width).reduce(0) { $0 | Int(arena[start + at + $1]) << (8 * $1) }
        }
        return Reservation(location: InputLocation(file: names[field(0, 4)], line: field(4, 4), column: field(8, 4)),
                           via: names[field(12, 2)], destination: field(14, 2))
    }

    /// Where a reserved key's reservation starts in the arena: after its count and bytes.
    private func reservationStart(_ offset: Int) -> Int {
        arena.withUnsafeBytes { arena in
            var start = offset
            let count = KeyBytes.readCount(arena, &start)
            return start + count
        }
    }

    private mutating func number(of name: String) -> Int {
        if let known = nameNumbers[name] { return known }
        names.append(name)
        nameNumbers[name] = names.count - 1
        return names.count - 1
    }

    private mutating func appendReservation(_ reservation: Reservation) {
        let via = number(of: reservation.via)
        precondition(via <= Int(UInt16.max) && reservation.destination <= Int(UInt16.max), "too many to-ones for the key table")
        for (value, width) in [(number(of: reservation.location.file), 4), (min(reservation.location.line, Int(UInt32.max)), 4),
                               (min(reservation.location.column, Int(UInt32.max)), 4), (via, 2), (reservation.destination, 2)] {
            for byte in 0..<width { arena.append(UInt8(truncatingIfNeeded: value >> (8 * byte))) }
        }
    }

    /// Adds a key that `find` did not find: written by an object of `entityNumber`, or reserved.
    mutating func add(_ key: KeyBytes, primaryKey: Int64, entityNumber: Int? = nil, reservation: Reservation? = nil) {
        precondition(primaryKey > 0 && primaryKey <= Int64(UInt32.max), "Z_PK \(primaryKey) does not fit the key table")
        if (count + 1) * 4 > slots.count / 2 * 3 { grow() }
        count += 1
        let offset = arena.count
        KeyBytes.appendCount(key.bytes.count, to: &arena)
        arena.append(contentsOf: key.bytes)
        if entityNumber == nil { appendReservation(reservation!) }
        store((key.hash >> 32) << 32 | UInt64(primaryKey), Self.second(offset: offset, entityNumber: entityNumber ?? 0))
    }

    /// Records that the object of `entityNumber` with this `Z_PK` has `found`'s key (a reserved
    /// key's object has come, or the key was given to an object written before).
    mutating func write(_ found: Found, primaryKey: Int64, entityNumber: Int) {
        precondition(primaryKey > 0 && primaryKey <= Int64(UInt32.max), "Z_PK \(primaryKey) does not fit the key table")
        slots[2 * found.slot] = (slots[2 * found.slot] >> 32) << 32 | UInt64(primaryKey)
        slots[2 * found.slot + 1] = Self.second(offset: found.offset, entityNumber: entityNumber)
    }

    /// Narrows what a reserved key's object must be.
    mutating func narrow(_ found: Found, to destination: Int) {
        let start = reservationStart(found.offset) + 14
        arena[start] = UInt8(truncatingIfNeeded: destination)
        arena[start + 1] = UInt8(truncatingIfNeeded: destination >> 8)
    }

    /// The arena offset of the reserved key that holds `primaryKey`, if one does (a scan of
    /// the slots, for messages).
    func reservedKey(holding primaryKey: Int64) -> Int? {
        for slot in stride(from: 0, to: slots.count, by: 2)
        where slots[slot] != 0 && slots[slot] & 0xFFFF_FFFF == UInt64(primaryKey) && slots[slot + 1] >> 48 == 0 {
            return Int(slots[slot + 1] & 0xFFFF_FFFF_FFFF)
        }
        return nil
    }

    /// The values of the key at `offset` in the arena (a reservation's key, for messages).
    func key(at offset: Int) -> [SQLValue] {
        arena.withUnsafeBytes { arena in
            var start = offset
            let count = KeyBytes.readCount(arena, &start)
            return KeyBytes.values(self.arena[start..<start + count])
        }
    }

    private static func second(offset: Int, entityNumber: Int) -> UInt64 {
        precondition(entityNumber >= 0 && entityNumber <= Int(UInt16.max), "Z_ENT \(entityNumber) does not fit the key table")
        precondition(offset < 1 << 48, "the key table holds at most 256 TiB of keys")
        return UInt64(entityNumber) << 48 | UInt64(offset)
    }

    private func place(of fingerprint: UInt64) -> Int {
        Int(truncatingIfNeeded: (fingerprint &* 0x9E37_79B9_7F4A_7C15) >> shift)
    }

    private mutating func store(_ first: UInt64, _ second: UInt64) {
        let mask = slots.count / 2 - 1
        var slot = place(of: first >> 32)
        while slots[2 * slot] != 0 { slot = (slot + 1) & mask }
        slots[2 * slot] = first
        slots[2 * slot + 1] = second
    }

    /// Doubles the slots and places each again (its place follows from its fingerprint).
    private mutating func grow() {
        let old = slots
        slots = Array(repeating: 0, count: old.count * 2)
        shift -= 1
        for slot in stride(from: 0, to: old.count, by: 2) where old[slot] != 0 { store(old[slot], old[slot + 1]) }
    }
}
