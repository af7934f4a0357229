#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

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
///
/// Keys that come in ascending order (of their bytes, `KeyBytes`: by value for numbers and for
/// text of one length) are filed without reading a slot. While each key filed was above the
/// one before (the index's *ascending run*), a key above the last is nobody's, and its slot's
/// word waits at the end of its table's list: reading a slot waits for memory at millions of
/// keys (the 1M catalog's sorted SKUs: 0.5 s of the parsing thread's samples, and the build 6%
/// faster without it). The first key that is not above the run, or any lookup, ends the run:
/// the waiting words are placed one table at a time, so each table's slots stay in cache
/// while its words go in.
final class KeyIndex {
    private struct Segment {
        var slots: [UInt64] = Array(repeating: 0, count: 8)
        var count = 0
        /// Slot words filed during the ascending run, placed when it ends: memory of the index's
        /// own, whose count and capacity are kept here, so that filing a word reads no array's
        /// header (256 of them, one per table, read at random: each a wait for memory).
        var waiting: UnsafeMutablePointer<UInt64>?
        var waitingCount = 0
        var waitingCapacity = 0
    }

    @exclusivity(unchecked) private var segments = Array(repeating: Segment(), count: 256)
    /// Whether every key filed so far came in ascending order (their words are waiting).
    @exclusivity(unchecked) private(set) var isAscending = true
    /// The ascending run's last key.
    @exclusivity(unchecked) private var lastAscending = KeyBytes()

    /// Whether `key` is above every key filed during the ascending run (false once it ended):
    /// then no object has it.
    func isAboveRun(_ key: KeyBytes) -> Bool {
        guard isAscending else { return false }
        return lastAscending.bytes.withUnsafeBytes { last in
            key.bytes.withUnsafeBytes { key in
                let shared = min(last.count, key.count)
                let order = shared == 0 ? 0 : memcmp(last.baseAddress!, key.baseAddress!, shared)
                return order < 0 || (order == 0 && last.count < key.count)
            }
        }
    }

    /// Records that the object with this `Z_PK` has `key`: as the ascending run's last when it
    /// is above the run, otherwise in the slots (ending the run).
    func insert(_ key: KeyBytes, primaryKey: Int64) {
        if isAboveRun(key) { extendRun(with: key, primaryKey: primaryKey) } else { insert(key.hash, primaryKey: primaryKey) }
    }

    /// Records that the object with this `Z_PK` has `key`, which the caller found above the
    /// ascending run (`isAboveRun`), as the run's last.
    func extendRun(with key: KeyBytes, primaryKey: Int64) {
        assert(isAboveRun(key), "a key not above the ascending run goes into the slots")
        lastAscending.copy(key)
        let number = Self.segment(key.hash)
        if segments[number].waitingCount == segments[number].waitingCapacity { growWaiting(number) }
        segments[number].waiting![segments[number].waitingCount] = Self.slot(key.hash, primaryKey)
        segments[number].waitingCount += 1
    }

    /// Grows a table's waiting words by a quarter, as the slots are (an array would double):
    /// they never take more memory than the slots they wait for.
    private func growWaiting(_ number: Int) {
        let capacity = segments[number].waitingCapacity + segments[number].waitingCapacity / 4 + 8
        let grown = UnsafeMutablePointer<UInt64>.allocate(capacity: capacity)
        if let old = segments[number].waiting {
            grown.moveInitialize(from: old, count: segments[number].waitingCount)
            old.deallocate()
        }
        (segments[number].waiting, segments[number].waitingCapacity) = (grown, capacity)
    }

    deinit {
        for segment in segments { segment.waiting?.deallocate() }
    }

    /// Ends the ascending run: each table is grown once to hold its waiting words, which go in.
    func endRun() {
        guard isAscending else { return }
        isAscending = false
        lastAscending = KeyBytes()
        for number in segments.indices {
            guard let waiting = segments[number].waiting else { continue }
            let words = UnsafeBufferPointer(start: waiting, count: segments[number].waitingCount)
            let count = segments[number].count + words.count
            if count * 5 > segments[number].slots.count * 4 { grow(number, to: count * 5 / 4 + 1) }
            for slot in words { Self.store(slot, in: &segments[number]) }
            segments[number].count = count
            waiting.deallocate()
            (segments[number].waiting, segments[number].waitingCount, segments[number].waitingCapacity) = (nil, 0, 0)
        }
    }

    /// Calls `body` with the `Z_PK` of each object whose key has this hash's fingerprint, until
    /// `body` returns true. Ends the ascending run.
    func candidates(_ hash: UInt64, _ body: (Int64) throws(InputError) -> Bool) throws(InputError) {
        endRun()
        let stored = Self.stored(hash)
        let slots = segments[Self.segment(hash)].slots
        var index = Self.place(of: stored, slots.count)
        while slots[index] != 0 {
            if slots[index] >> 32 == stored, try body(Int64(slots[index] & 0xFFFF_FFFF)) { return }
            index = index + 1 == slots.count ? 0 : index + 1
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

    /// A slot's word: the kept part of the fingerprint and the `Z_PK`.
    private static func slot(_ hash: UInt64, _ primaryKey: Int64) -> UInt64 {
        precondition(primaryKey > 0 && primaryKey <= Int64(UInt32.max), "Z_PK \(primaryKey) does not fit the key index")
        return stored(hash) << 32 | UInt64(primaryKey)
    }

    /// Records that the object with this `Z_PK` has the key of this hash, in the slots (the
    /// ascending run ends first).
    func insert(_ hash: UInt64, primaryKey: Int64) {
        endRun()
        let number = Self.segment(hash)
        let slots = segments[number].slots.count
        if (segments[number].count + 1) * 5 > slots * 4 { grow(number, to: slots + slots / 4) }
        Self.store(Self.slot(hash, primaryKey), in: &segments[number])
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

    /// Grows one table to `count` slots and places its slots again (a place follows from the
    /// fingerprint): by a quarter as keys come, at once for the words the run kept waiting.
    private func grow(_ number: Int, to count: Int) {
        let old = segments[number].slots
        segments[number].slots = Array(repeating: 0, count: count)
        for slot in old where slot != 0 { Self.store(slot, in: &segments[number]) }
    }
}
