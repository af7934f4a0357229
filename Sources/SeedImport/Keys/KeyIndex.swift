/// Which objects of one key-declaring entity tree have which natural key, in 8 bytes a slot:
/// a fingerprint of the key's values and the object's `Z_PK`. A slot whose fingerprint matches
/// is only a candidate: the repository confirms it by reading the row's key, which happens for
/// real merges and, for a new key, about once per 2^40 slots compared. A new key costs no query
/// at all, so the rows of a keyed import keep streaming to the writer thread.
///
/// 256 open-addressing tables (linear probing, each at most 4/5 full, growing by a quarter),
/// chosen by the hash's top 8 bits: one grows at a time, so growing holds 1/256 of the index
/// twice instead of all of it. A slot keeps the next 32 bits, so a fingerprint is 40 bits wide:
/// the hash's top 40. Its width sets how often a new key's candidate is another key: about
/// n²/2^41 times for n keys, 45 times at 10M (with 32 bits, 11,600 times: each a query that
/// first waits for the row stream and writes its pending rows on the parsing thread).
/// Memory: between 10 and 12.5 bytes per key (about 11 MiB for 1M keys, 110 MiB for 10M).
final class KeyIndex {
    private struct Segment {
        var slots: [UInt64] = Array(repeating: 0, count: 8)
        var count = 0
    }

    @exclusivity(unchecked) private var segments = Array(repeating: Segment(), count: 256)

    /// Calls `body` with the `Z_PK` of each object whose key has this hash's fingerprint, until
    /// `body` returns true.
    func candidates(_ hash: UInt64, _ body: (Int64) throws(InputError) -> Bool) throws(InputError) {
        let stored = Self.stored(hash)
        let segment = segments[Self.segment(hash)]
        var index = Self.place(of: stored, segment.slots.count)
        while segment.slots[index] != 0 {
            if segment.slots[index] >> 32 == stored, try body(Int64(segment.slots[index] & 0xFFFF_FFFF)) { return }
            index = index + 1 == segment.slots.count ? 0 : index + 1
        }
    }

    /// Reads the slot `candidates(hash)` reads first (see `KeyResolver.touch`).
    func touch(_ hash: UInt64) -> UInt64 {
        let slots = segments[Self.segment(hash)].slots
        return slots[Self.place(of: Self.stored(hash), slots.count)]
    }

    /// The table of a hash: its top 8 bits.
    private static func segment(_ hash: UInt64) -> Int { Int(hash >> 56) }

    /// The part of a hash's fingerprint a slot keeps: the 32 bits after the table's 8.
    private static func stored(_ hash: UInt64) -> UInt64 { hash >> 24 & 0xFFFF_FFFF }

    /// Records that the object with this `Z_PK` has the key of this hash.
    func insert(_ hash: UInt64, primaryKey: Int64) {
        precondition(primaryKey > 0 && primaryKey <= Int64(UInt32.max), "Z_PK \(primaryKey) does not fit the key index")
        let number = Self.segment(hash)
        if (segments[number].count + 1) * 5 > segments[number].slots.count * 4 { grow(number) }
        Self.store(Self.stored(hash) << 32 | UInt64(primaryKey), in: &segments[number])
        segments[number].count += 1
    }

    /// The place of a slot's fingerprint among `count` slots: its mixed bits scaled to the count
    /// (the high half of a 64-bit product), so a table may have any size.
    private static func place(of fingerprint: UInt64, _ count: Int) -> Int {
        Int(truncatingIfNeeded: (fingerprint &* 0x9E37_79B9_7F4A_7C15).multipliedFullWidth(by: UInt64(count)).high)
    }

    private static func store(_ slot: UInt64, in segment: inout Segment) {
        var index = place(of: slot >> 32, segment.slots.count)
        while segment.slots[index] != 0 { index = index + 1 == segment.slots.count ? 0 : index + 1 }
        segment.slots[index] = slot
    }

    /// Grows one table by a quarter and places its slots again (a place follows from the fingerprint).
    private func grow(_ number: Int) {
        let old = segments[number].slots
        segments[number].slots = Array(repeating: 0, count: old.count + old.count / 4)
        for slot in old where slot != 0 { Self.store(slot, in: &segments[number]) }
    }
}
