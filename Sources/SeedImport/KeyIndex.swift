/// Which objects of one key-declaring entity tree have which natural key, in 8 bytes a slot:
/// a 32-bit fingerprint of the key's values and the object's `Z_PK` (open addressing, linear
/// probing from a place computed from the fingerprint, at most 3/4 full). A slot whose
/// fingerprint matches is only a candidate: the repository confirms it by reading the row's key,
/// which happens for real merges and, for a new key, about once per 2^32 slots compared. A new
/// key costs no query at all, so the rows of a keyed import keep streaming to the writer thread.
///
/// Memory: 8 bytes × capacity, a power of two at least count / 0.75: between 10.7 and 21.3 bytes
/// per key (16 MiB for 1M keys, 128 MiB for 10M); while the table doubles, the old one is
/// held too.
struct KeyIndex {
    private var slots: [UInt64]
    private var count = 0
    /// 64 − log2(capacity): the place is the top bits of the mixed fingerprint.
    private var shift: UInt64

    init() {
        slots = Array(repeating: 0, count: 1024)
        shift = 64 - 10
    }

    /// Calls `body` with the `Z_PK` of each object whose key has this hash's fingerprint, until
    /// `body` returns true.
    func candidates(_ hash: Int, _ body: (Int64) throws(InputError) -> Bool) throws(InputError) {
        let fingerprint = Self.fingerprint(hash)
        var index = place(of: fingerprint)
        while slots[index] != 0 {
            if slots[index] >> 32 == fingerprint, try body(Int64(slots[index] & 0xFFFF_FFFF)) { return }
            index = (index + 1) & (slots.count - 1)
        }
    }

    /// Records that the object with this `Z_PK` has the key of this hash.
    mutating func insert(_ hash: Int, primaryKey: Int64) {
        precondition(primaryKey > 0 && primaryKey <= Int64(UInt32.max), "Z_PK \(primaryKey) does not fit the key index")
        if (count + 1) * 4 > slots.count * 3 { grow() }
        store(Self.fingerprint(hash) << 32 | UInt64(primaryKey))
        count += 1
    }

    private func place(of fingerprint: UInt64) -> Int {
        Int(truncatingIfNeeded: (fingerprint &* 0x9E37_79B9_7F4A_7C15) >> shift)
    }

    private mutating func store(_ slot: UInt64) {
        var index = place(of: slot >> 32)
        while slots[index] != 0 { index = (index + 1) & (slots.count - 1) }
        slots[index] = slot
    }

    /// Doubles the table and places every slot again (its place follows from its fingerprint).
    private mutating func grow() {
        let old = slots
        slots = Array(repeating: 0, count: old.count * 2)
        shift -= 1
        for slot in old where slot != 0 { store(slot) }
    }

    /// The hash's upper 32 bits.
    private static func fingerprint(_ hash: Int) -> UInt64 {
        UInt64(UInt32(truncatingIfNeeded: hash >> 32))
    }
}
