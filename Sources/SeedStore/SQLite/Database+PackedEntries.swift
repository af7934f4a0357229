import SeedgenSQLite

/// The packed record's entries of one entity while it is unpacked (`SeedRecord.unpack`), looked
/// up by `Z_PK` from SQL, where each object's row is named and digested:
/// - `seedgen_packed_holds(pk)`: 1 when the record holds the object, else 0;
/// - `seedgen_packed_key(pk, key, check)`: `key` where `check` (the check of the key the row names
///   the object by) is the recorded one, else the key known by its check alone (`x …`);
/// - `seedgen_packed_digest(pk, digest)`: `digest` (the row's) where its first 5 bytes are the
///   recorded ones, else those recorded 5 bytes and zeros, 16 in all.
/// Each object given to `seedgen_packed_key` is marked seen (`unseen`: those the store no longer
/// holds).
final class PackedEntries: @unchecked Sendable {
    /// The first `Z_PK` of each run, ascending, and where its entries start among all of them.
    private let firsts: [Int64], starts: [Int]
    /// Every entry, run after run, and whether each object was looked up: flat buffers, read
    /// without a copy or a closure per lookup (SQLite asks up to three times an object).
    private let entries: UnsafeMutableRawBufferPointer, seen: UnsafeMutableBufferPointer<Bool>

    /// `runs` sorted by their first `Z_PK`; nil when two overlap (an object packed twice).
    init?(runs: [(first: Int64, bytes: [UInt8])]) {
        let sorted = runs.sorted { $0.first < $1.first }
        for (earlier, later) in zip(sorted, sorted.dropFirst())
        where later.first < earlier.first + Int64(earlier.bytes.count / SeedRecord.packedEntryLength) {
            return nil
        }
        firsts = sorted.map(\.first)
        var starts: [Int] = [], count = 0
        for run in sorted {
            starts.append(count)
            count += run.bytes.count / SeedRecord.packedEntryLength
        }
        self.starts = starts + [count]
        entries = .allocate(byteCount: max(count, 1) * SeedRecord.packedEntryLength, alignment: 8)
        seen = .allocate(capacity: max(count, 1))
        seen.initialize(repeating: false)
        for (run, start) in zip(sorted, starts) {
            run.bytes.withUnsafeBytes { entries.baseAddress!.advanced(by: start * SeedRecord.packedEntryLength).copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
        }
    }

    deinit {
        entries.deallocate()
        seen.deallocate()
    }

    /// The index among all entries of the object `primaryKey`, if the record holds it.
    private func index(of primaryKey: Int64) -> Int? {
        var (low, high) = (0, firsts.count)
        while low < high {
            let middle = (low + high) / 2
            if firsts[middle] <= primaryKey { low = middle + 1 } else { high = middle }
        }
        guard low > 0 else { return nil }
        let index = starts[low - 1] + Int(primaryKey - firsts[low - 1])
        return index < starts[low] ? index : nil
    }

    /// The entry of `primaryKey` (marked seen with `marking`), nil if the record holds none.
    fileprivate func entry(_ primaryKey: Int64, marking: Bool) -> UnsafeRawBufferPointer? {
        guard let index = index(of: primaryKey) else { return nil }
        if marking { seen[index] = true }
        return UnsafeRawBufferPointer(rebasing: entries[index * SeedRecord.packedEntryLength ..< (index + 1) * SeedRecord.packedEntryLength])
    }

    /// The objects `seedgen_packed_key` was not given, with their keys known by their checks and
    /// their digests as far as recorded, in `Z_PK` order.
    func unseen() -> [(primaryKey: Int64, key: String, digest: [UInt8])] {
        var found: [(primaryKey: Int64, key: String, digest: [UInt8])] = []
        for run in firsts.indices {
            for index in starts[run] ..< starts[run + 1] where !seen[index] {
                let entry = UnsafeRawBufferPointer(rebasing: entries[index * SeedRecord.packedEntryLength ..< (index + 1) * SeedRecord.packedEntryLength])
                found.append((firsts[run] + Int64(index - starts[run]), Self.keyKnownByCheck(entry), Self.digestKnownInPart(entry)))
            }
        }
        return found
    }

    /// `x ` and the entry's key check in hexadecimal, as SQL's `hex()` writes it.
    static func keyKnownByCheck(_ entry: UnsafeRawBufferPointer) -> String {
        let digits = Array("0123456789ABCDEF".utf8)
        var text = Array(SeedRecord.checkKeyPrefix.utf8)
        for byte in entry.suffix(SeedRecord.packedPartLength) { text += [digits[Int(byte >> 4)], digits[Int(byte & 15)]] }
        return String(decoding: text, as: UTF8.self)
    }

    /// The entry's digest bytes, then zeros: a digest of `Database.rowDigestLength` bytes.
    static func digestKnownInPart(_ entry: UnsafeRawBufferPointer) -> [UInt8] {
        Array(entry.prefix(SeedRecord.packedPartLength)) + [UInt8](repeating: 0, count: Database.rowDigestLength - SeedRecord.packedPartLength)
    }
}

extension Database {
    /// Registers `seedgen_packed_holds`, `seedgen_packed_key` and `seedgen_packed_digest` over
    /// `entries` (replacing any before), until `unregisterPackedEntries`.
    func registerPackedEntries(_ entries: PackedEntries) {
        typealias Function = @convention(c) (OpaquePointer?, Int32, UnsafeMutablePointer<OpaquePointer?>?) -> Void
        let functions: [(String, Int32, Function)] = [
            ("seedgen_packed_holds", 1, { context, _, arguments in
                guard let arguments, let entries = PackedEntries.from(context) else { return }
                sqlite3_result_int(context, entries.entry(sqlite3_value_int64(arguments[0]), marking: false) == nil ? 0 : 1)
            }),
            ("seedgen_packed_key", 3, { context, _, arguments in
                guard let arguments, let entries = PackedEntries.from(context) else { return }
                do {
                    guard let entry = entries.entry(sqlite3_value_int64(arguments[0]), marking: true) else { return sqlite3_result_null(context) }
                    let part = SeedRecord.packedPartLength
                    if sqlite3_value_bytes(arguments[2]) == Int32(part), let check = sqlite3_value_blob(arguments[2]),
                       UnsafeRawBufferPointer(start: check, count: part).elementsEqual(entry.suffix(part)) {
                        return sqlite3_result_value(context, arguments[1])
                    }
                    let text = Array(PackedEntries.keyKnownByCheck(entry).utf8)
                    text.withUnsafeBytes { sqlite3_result_text(context, $0.baseAddress?.assumingMemoryBound(to: CChar.self), Int32(text.count), SQLITE_TRANSIENT) }
                }
            }),
            ("seedgen_packed_digest", 2, { context, _, arguments in
                guard let arguments, let entries = PackedEntries.from(context) else { return }
                do {
                    guard let entry = entries.entry(sqlite3_value_int64(arguments[0]), marking: false) else { return sqlite3_result_null(context) }
                    let part = SeedRecord.packedPartLength
                    if sqlite3_value_bytes(arguments[1]) >= Int32(part), let digest = sqlite3_value_blob(arguments[1]),
                       UnsafeRawBufferPointer(start: digest, count: part).elementsEqual(entry.prefix(part)) {
                        return sqlite3_result_value(context, arguments[1])
                    }
                    PackedEntries.digestKnownInPart(entry).withUnsafeBytes { sqlite3_result_blob(context, $0.baseAddress, Int32($0.count), SQLITE_TRANSIENT) }
                }
            }),
        ]
        for (name, count, function) in functions {
            sqlite3_create_function_v2(handle, name, count, SQLITE_UTF8, Unmanaged.passRetained(entries).toOpaque(), function, nil, nil, { box in
                if let box { Unmanaged<PackedEntries>.fromOpaque(box).release() }
            })
        }
    }

    /// Removes the functions `registerPackedEntries` made.
    func unregisterPackedEntries() {
        for (name, count) in [("seedgen_packed_holds", 1), ("seedgen_packed_key", 3), ("seedgen_packed_digest", 2)] as [(String, Int32)] {
            sqlite3_create_function_v2(handle, name, count, SQLITE_UTF8, nil, nil, nil, nil, nil)
        }
    }
}

extension PackedEntries {
    /// The entries a function was registered with.
    fileprivate static func from(_ context: OpaquePointer?) -> PackedEntries? {
        sqlite3_user_data(context).map { Unmanaged<PackedEntries>.fromOpaque($0).takeUnretainedValue() }
    }
}
