/// Which objects of one key-declaring entity tree have which natural key, in 8 bytes a slot:
/// a 32-bit fingerprint of the key's values and the object's `Z_PK`. A slot whose fingerprint
/// matches is only a candidate: the repository confirms it by reading the row's key, which
/// happens for real merges and, for a new key, about once per 2^32 slots compared. A new key
/// costs no query at all, so the rows of a keyed import keep streaming to the writer thread.
///
/// 256 open-addressing tables (linear probing, each at most 3/4 full), chosen by the
/// fingerprint's top 8 bits: one doubles at a time, so growing holds 1/256 of the index twice
/// instead of all of it. Memory: between 10.7 and 21.3 bytes per key (16 MiB for 1M keys,
/// 128 MiB for 10M).
struct KeyIndex {
    private struct Segment {
        var slots: [UInt64] = Array(repeating: 0, count: 4)
        var count = 0
        /// 64 − log2(capacity): the place is the top bits of the mixed fingerprint.
        var shift: UInt64 = 64 - 2
    }

    private var segments = Array(repeating: Segment(), count: 256)

    /// Calls `body` with the `Z_PK` of each object whose key has this hash's fingerprint, until
    /// `body` returns true.
    func candidates(_ hash: UInt64, _ body: (Int64) throws(InputError) -> Bool) throws(InputError) {
        let fingerprint = hash >> 32
        let segment = segments[Int(fingerprint >> 24)]
        var index = Self.place(of: fingerprint, segment.shift)
        while segment.slots[index] != 0 {
            if segment.slots[index] >> 32 == fingerprint, try body(Int64(segment.slots[index] & 0xFFFF_FFFF)) { return }
            index = (index + 1) & (segment.slots.count - 1)
        }
    }

    /// Records that the object with this `Z_PK` has the key of this hash.
    mutating func insert(_ hash: UInt64, primaryKey: Int64) {
        precondition(primaryKey > 0 && primaryKey <= Int64(UInt32.max), "Z_PK \(primaryKey) does not fit the key index")
        let fingerprint = hash >> 32
        let number = Int(fingerprint >> 24)
        if (segments[number].count + 1) * 4 > segments[number].slots.count * 3 { grow(number) }
        Self.store(fingerprint << 32 | UInt64(primaryKey), in: &segments[number])
        segments[number].count += 1
    }

    private static func place(of fingerprint: UInt64, _ shift: UInt64) -> Int {
        Int(truncatingIfNeeded: (fingerprint &* 0x9E37_79B9_7F4A_7C15) >> shift)
    }

    private static func store(_ slot: UInt64, in segment: inout Segment) {
        var index = place(of: slot >> 32, segment.shift)
        while segment.slots[index] != 0 { index = (index + 1) & (segment.slots.count - 1) }
        segment.slots[index] = slot
    }

    /// Doubles one table and places its slots again (a place follows from the fingerprint).
    private mutating func grow(_ number: Int) {
        let old = segments[number].slots
        segments[number].slots = Array(repeating: 0, count: old.count * 2)
        segments[number].shift -= 1
        for slot in old where slot != 0 { Self.store(slot, in: &segments[number]) }
    }
}
