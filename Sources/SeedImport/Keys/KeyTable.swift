#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import SeedStore

/// The natural keys of one key-declaring entity tree that to-ones name by key (or a build's
/// source-local identifiers, as text keys), kept whole, with the `Z_PK` each names: a reference
/// finds its object here exactly, with no query and nothing to check at the end. A key named
/// before its object is written is *reserved*: it gets its `Z_PK` at first sight (the next of
/// its table), the referring rows are written with it, and the object takes it when it comes;
/// one never written is a dangling reference (`forEachReservation`).
///
/// Open addressing, linear probing, at most 3/4 full. A slot is one word: the key's 32-bit
/// fingerprint and where its entry starts in the arena. An entry is the `Z_PK` (4 bytes), the
/// `Z_ENT` of its object (2 bytes, 0 while reserved), the key's byte count and bytes, so a lookup
/// reads one slot and one place of the arena, and the slots stay small enough to stay in cache.
/// Memory per key: 10.7 to 21.3 bytes of slot, 6 bytes of entry and the key's bytes (`KeyBytes`:
/// its text and two bytes); about 38 bytes for a key of 15 characters. A reserved key also keeps
/// where it was first named, in 16 bytes after its entry.
struct KeyTable {
    /// A key's entry: the `Z_PK` it names and the `Z_ENT` of the object written with it, 0 while
    /// the key is reserved (`reservation(_:)`); valid until the next `add`.
    struct Found {
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

    /// One word a slot (zero: empty): fingerprint << 32 | (entry offset + 1).
    private var slots: [UInt64]
    private var shift: UInt64
    private var count = 0
    /// The entries: `Z_PK` (4 bytes), `Z_ENT` (2), the key's byte count (a variable-length
    /// number) and bytes; for a key added reserved, then its reservation: file and via (numbers
    /// in `names`), line, column (4 bytes each) and destination (2 bytes, with 2 of via).
    private var arena: [UInt8] = []
    /// The files and to-ones reservations name, by number.
    private var names = NameNumbers()
    /// The bytes of an entry before the key's count.
    private static let header = 6

    init() {
        slots = Array(repeating: 0, count: 256)
        shift = 64 - 8
    }

    /// The entry of `key`, when it has one.
    func find(_ key: KeyBytes) -> Found? {
        let fingerprint = key.hash >> 32
        let mask = slots.count - 1
        var slot = place(of: fingerprint)
        return key.bytes.withUnsafeBytes { given in
            arena.withUnsafeBytes { arena in
                slots.withUnsafeBufferPointer { slots in
                    while slots[slot] != 0 {
                        if slots[slot] >> 32 == fingerprint {
                            let offset = Int(slots[slot] & 0xFFFF_FFFF) - 1
                            var start = offset + Self.header
                            let count = KeyBytes.readCount(arena, &start)
                            if count == given.count, count == 0 || memcmp(arena.baseAddress! + start, given.baseAddress!, count) == 0 {
                                return Found(offset: offset, primaryKey: Int64(Self.read(arena, offset, 4)),
                                             entityNumber: Int(Self.read(arena, offset + 4, 2)))
                            }
                        }
                        slot = (slot + 1) & mask
                    }
                    return nil
                }
            }
        }
    }

    /// Reads what `find(key)` reads first, the key's home slot and the entry it points at, and
    /// returns a word of them: a row's lookups touched together wait for memory together (see
    /// `KeyResolver.touch`).
    func touch(_ key: KeyBytes) -> UInt64 {
        slots.withUnsafeBufferPointer { slots in
            let slot = slots[place(of: key.hash >> 32)]
            guard slot != 0 else { return 0 }
            return arena.withUnsafeBytes { UInt64($0[Int(slot & 0xFFFF_FFFF) - 1]) }
        }
    }

    /// Where and how a reserved key was named.
    func reservation(_ found: Found) -> Reservation {
        reservation(at: found.offset)
    }

    /// The entity a reserved key's object must be (`reservation(found).destination`, read alone:
    /// each later reference checks it, and makes no strings).
    func reservedDestination(_ found: Found) -> Int {
        arena.withUnsafeBytes { Int(Self.read($0, reservationStart(found.offset) + 14, 2)) }
    }

    /// Calls `body` with the offset and reservation of every key still reserved, in no
    /// particular order (nothing is collected: a million dangling keys cost no more to report).
    func forEachReservation(_ body: (_ offset: Int, Reservation) -> Void) {
        for slot in slots where slot != 0 {
            let offset = Int(slot & 0xFFFF_FFFF) - 1
            if entityNumber(at: offset) == 0 { body(offset, reservation(at: offset)) }
        }
    }

    private func entityNumber(at offset: Int) -> Int {
        arena.withUnsafeBytes { Int(Self.read($0, offset + 4, 2)) }
    }

    private func reservation(at offset: Int) -> Reservation {
        let start = reservationStart(offset)
        func field(_ at: Int, _ width: Int) -> Int {
            arena.withUnsafeBytes { Int(Self.read($0, start + at, width)) }
        }
        return Reservation(location: InputLocation(file: names[field(0, 4)], line: field(4, 4), column: field(8, 4)),
                           via: names[field(12, 2)], destination: field(14, 2))
    }

    /// Where a reserved key's reservation starts in the arena: after its entry.
    private func reservationStart(_ offset: Int) -> Int {
        arena.withUnsafeBytes { arena in
            var start = offset + Self.header
            let count = KeyBytes.readCount(arena, &start)
            return start + count
        }
    }


    private mutating func appendReservation(_ reservation: Reservation) {
        let via = names.number(of: reservation.via)
        precondition(via <= Int(UInt16.max) && reservation.destination <= Int(UInt16.max), "too many to-ones for the key table")
        for (value, width) in [(names.number(of: reservation.location.file), 4), (min(reservation.location.line, Int(UInt32.max)), 4),
                               (min(reservation.location.column, Int(UInt32.max)), 4), (via, 2), (reservation.destination, 2)] {
            Self.append(UInt64(value), width, to: &arena)
        }
    }

    /// Adds a key that `find` did not find: written by an object of `entityNumber`, or reserved.
    mutating func add(_ key: KeyBytes, primaryKey: Int64, entityNumber: Int? = nil, reservation: Reservation? = nil) {
        Self.check(primaryKey: primaryKey, entityNumber: entityNumber ?? 0)
        precondition(arena.count < Int(UInt32.max) - 1, "the key table holds at most 4 GiB of keys")
        if (count + 1) * 4 > slots.count * 3 { grow() }
        count += 1
        let offset = arena.count
        Self.append(UInt64(primaryKey), 4, to: &arena)
        Self.append(UInt64(entityNumber ?? 0), 2, to: &arena)
        KeyBytes.appendCount(key.bytes.count, to: &arena)
        arena.append(contentsOf: key.bytes)
        if entityNumber == nil { appendReservation(reservation!) }
        store((key.hash >> 32) << 32 | UInt64(offset + 1))
    }

    /// Records that the object of `entityNumber` with this `Z_PK` has `found`'s key (a reserved
    /// key's object has come, or the key was given to an object written before).
    mutating func write(_ found: Found, primaryKey: Int64, entityNumber: Int) {
        Self.check(primaryKey: primaryKey, entityNumber: entityNumber)
        Self.put(UInt64(primaryKey), 4, into: &arena, at: found.offset)
        Self.put(UInt64(entityNumber), 2, into: &arena, at: found.offset + 4)
    }

    /// Narrows what a reserved key's object must be.
    mutating func narrow(_ found: Found, to destination: Int) {
        Self.put(UInt64(destination), 2, into: &arena, at: reservationStart(found.offset) + 14)
    }

    /// The offset of the reserved key that holds `primaryKey`, if one does (a scan of the
    /// entries, for messages).
    func reservedKey(holding primaryKey: Int64) -> Int? {
        arena.withUnsafeBytes { arena in
            slots.lazy.filter { $0 != 0 }.map { Int($0 & 0xFFFF_FFFF) - 1 }
                .first { Self.read(arena, $0 + 4, 2) == 0 && Self.read(arena, $0, 4) == UInt64(primaryKey) }
        }
    }

    /// The values of the key whose entry is at `offset` (a reservation's key, for messages).
    func key(at offset: Int) -> [SQLValue] {
        arena.withUnsafeBytes { arena in
            var start = offset + Self.header
            let count = KeyBytes.readCount(arena, &start)
            return KeyBytes.values(self.arena[start..<start + count])
        }
    }

    private static func check(primaryKey: Int64, entityNumber: Int) {
        precondition(primaryKey > 0 && primaryKey <= Int64(UInt32.max), "Z_PK \(primaryKey) does not fit the key table")
        precondition(entityNumber >= 0 && entityNumber <= Int(UInt16.max), "Z_ENT \(entityNumber) does not fit the key table")
    }

    /// Writes `value` as `width` little-endian bytes at `offset`.
    private static func put(_ value: UInt64, _ width: Int, into arena: inout [UInt8], at offset: Int) {
        for byte in 0..<width { arena[offset + byte] = UInt8(truncatingIfNeeded: value >> (8 * UInt64(byte))) }
    }

    private static func append(_ value: UInt64, _ width: Int, to arena: inout [UInt8]) {
        for byte in 0..<width { arena.append(UInt8(truncatingIfNeeded: value >> (8 * UInt64(byte)))) }
    }

    /// The little-endian number of `width` bytes at `offset` (2 and 4, an entry's, in one load).
    private static func read(_ arena: UnsafeRawBufferPointer, _ offset: Int, _ width: Int) -> UInt64 {
        switch width {
        case 2: return UInt64(UInt16(littleEndian: arena.loadUnaligned(fromByteOffset: offset, as: UInt16.self)))
        case 4: return UInt64(UInt32(littleEndian: arena.loadUnaligned(fromByteOffset: offset, as: UInt32.self)))
        default:
            var value: UInt64 = 0
            for byte in 0..<width { value |= UInt64(arena[offset + byte]) << (8 * UInt64(byte)) }
            return value
        }
    }

    private func place(of fingerprint: UInt64) -> Int {
        Int(truncatingIfNeeded: (fingerprint &* 0x9E37_79B9_7F4A_7C15) >> shift)
    }

    private mutating func store(_ slot: UInt64) {
        let mask = slots.count - 1
        var index = place(of: slot >> 32)
        while slots[index] != 0 { index = (index + 1) & mask }
        slots[index] = slot
    }

    /// Doubles the slots and places each again (its place follows from its fingerprint).
    private mutating func grow() {
        let old = slots
        slots = Array(repeating: 0, count: old.count * 2)
        shift -= 1
        for slot in old where slot != 0 { store(slot) }
    }
}
