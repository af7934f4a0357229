import SeedStore

/// A natural key's values as bytes, one canonical form per value, and their hash: what the key
/// index and the key table file and compare. Two keys have the same bytes exactly when the
/// store would hold the same values: an integral REAL is the INTEGER it equals (Core Data's
/// NUMERIC columns store 12.0 as 12), text and blobs keep their bytes, with their length.
///
/// One value of a kind byte (0 NULL, 1 integer, 2 real, 3 text, 4 blob), then 8 bytes for a
/// number, or a variable-length count and the bytes for text and blobs. A number's 8 bytes
/// keep its order (big-endian, the sign bit turned over; a negative real's bits all turned
/// over): keys ascending by value, the integers 1, 2, … 300 as much as the text 'SKU-001', …,
/// ascend by bytes too, which is what `KeyIndex`'s ascending run needs.
struct KeyBytes {
    private(set) var bytes: [UInt8] = []
    /// The bytes' hash (see `hash(of:)`).
    private(set) var hash: UInt64 = 0

    /// Replaces the bytes with those of `values`.
    mutating func set(_ values: some Sequence<SQLValue>) {
        bytes.removeAll(keepingCapacity: true)
        for value in values {
            let start = bytes.count
            Self.resize(&bytes, to: start + Self.encodedCount(value))
            bytes.withUnsafeMutableBufferPointer { _ = Self.write(value, into: $0, at: start) }
        }
        hash = Self.hash(of: bytes)
    }

    /// Replaces the bytes with those of the values at `parameters` of a row being built (each
    /// given): measured first, then written in place (the import's hot path: a key of the same
    /// length as the last one moves no memory).
    mutating func set(_ row: UnsafeMutableBufferPointer<SQLValue?>, at parameters: [Int]) {
        var count = 0
        for parameter in parameters { count += Self.encodedCount(row[parameter]!) }
        Self.resize(&bytes, to: count)
        bytes.withUnsafeMutableBufferPointer { out in
            var start = 0
            for parameter in parameters { start = Self.write(row[parameter]!, into: out, at: start) }
        }
        hash = Self.hash(of: bytes)
    }

    /// Makes these bytes a copy of `other`'s (in this key's own memory: no storage is shared,
    /// so setting either later moves no memory).
    mutating func copy(_ other: KeyBytes) {
        Self.resize(&bytes, to: other.bytes.count)
        bytes.withUnsafeMutableBytes { out in other.bytes.withUnsafeBytes { out.copyMemory(from: $0) } }
        hash = other.hash
    }

    /// Gives `bytes` `count` elements, keeping its memory (new ones are zero).
    private static func resize(_ bytes: inout [UInt8], to count: Int) {
        if bytes.count < count {
            bytes.append(contentsOf: repeatElement(0, count: count - bytes.count))
        } else if bytes.count > count {
            bytes.removeLast(bytes.count - count)
        }
    }

    /// The bytes `write` takes for `value`.
    private static func encodedCount(_ value: SQLValue) -> Int {
        switch value {
        case .null: 1
        case .integer, .real: 9
        case .text(let text): 1 + countSize(text.utf8.count) + text.utf8.count
        case .blob(let blob): 1 + countSize(blob.count) + blob.count
        }
    }

    /// Writes `value`'s canonical bytes at `start`; returns where they end.
    private static func write(_ value: SQLValue, into out: UnsafeMutableBufferPointer<UInt8>, at start: Int) -> Int {
        switch value {
        case .null:
            out[start] = 0
            return start + 1
        case .integer(let integer):
            return writeNumber(1, ordered(integer), into: out, at: start)
        case .real(let real):
            if real.rounded() == real, real >= -0x1p63, real < 0x1p63 {
                return writeNumber(1, ordered(Int64(real)), into: out, at: start)
            }
            return writeNumber(2, ordered(real), into: out, at: start)
        case .text(var text):
            return text.withUTF8 { writeCounted(3, $0, into: out, at: start) }
        case .blob(let blob):
            return blob.withUnsafeBufferPointer { writeCounted(4, $0, into: out, at: start) }
        }
    }

    private static func writeNumber(_ kind: UInt8, _ bits: UInt64, into out: UnsafeMutableBufferPointer<UInt8>, at start: Int) -> Int {
        out[start] = kind
        UnsafeMutableRawPointer(out.baseAddress! + start + 1).storeBytes(of: bits.bigEndian, as: UInt64.self)
        return start + 9
    }

    private static func writeCounted(_ kind: UInt8, _ content: UnsafeBufferPointer<UInt8>, into out: UnsafeMutableBufferPointer<UInt8>,
                                     at start: Int) -> Int {
        out[start] = kind
        let at = writeCount(content.count, into: out, at: start + 1)
        if let base = content.baseAddress, content.count > 0 {
            (out.baseAddress! + at).update(from: base, count: content.count)
        }
        return at + content.count
    }

    /// An integer's bits in an order that unsigned comparison keeps: the sign bit turned over.
    private static func ordered(_ integer: Int64) -> UInt64 {
        UInt64(bitPattern: integer) ^ 1 << 63
    }

    /// A real's bits in an order that unsigned comparison keeps (NaN aside): a positive one's
    /// sign bit turned over, a negative one's bits all turned over.
    private static func ordered(_ real: Double) -> UInt64 {
        real.sign == .minus ? ~real.bitPattern : real.bitPattern | 1 << 63
    }

    /// Appends a count, 7 bits a byte, low bits first (`readCount` reads it).
    static func appendCount(_ count: Int, to bytes: inout [UInt8]) {
        let start = bytes.count
        resize(&bytes, to: start + countSize(count))
        bytes.withUnsafeMutableBufferPointer { _ = writeCount(count, into: $0, at: start) }
    }

    /// The bytes a count takes (`writeCount`).
    private static func countSize(_ count: Int) -> Int {
        var size = 1
        var rest = count >> 7
        while rest > 0 { size += 1; rest >>= 7 }
        return size
    }

    /// Writes a count at `start`, 7 bits a byte, low bits first; returns where it ends.
    private static func writeCount(_ count: Int, into out: UnsafeMutableBufferPointer<UInt8>, at start: Int) -> Int {
        var count = count
        var at = start
        while count >= 0x80 {
            out[at] = UInt8(truncatingIfNeeded: count) | 0x80
            count >>= 7
            at += 1
        }
        out[at] = UInt8(count)
        return at + 1
    }

    /// The hash's seed, drawn once per process: keys crafted to collide under a known hash
    /// (which would make every lookup probe them all, quadratic time) do not collide under an
    /// unknown one. Nothing in the store depends on it (`Z_PK`s follow the input's order), so
    /// the output's bytes are the same in every run.
    static let seed = UInt64.random(in: .min ... .max)

    /// A 64-bit hash of the bytes (multiply–xorshift over 8-byte words), from `seed`.
    static func hash(of bytes: [UInt8], seed: UInt64 = Self.seed) -> UInt64 {
        bytes.withUnsafeBytes { raw in
            var hash = 0x9E37_79B9_7F4A_7C15 ^ seed ^ UInt64(raw.count)
            var offset = 0
            while offset + 8 <= raw.count {
                hash = Self.mix(hash ^ raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
                offset += 8
            }
            if offset < raw.count {
                var tail: UInt64 = 0
                for index in offset..<raw.count { tail = tail << 8 | UInt64(raw[index]) }
                hash = Self.mix(hash ^ tail)
            }
            return Self.mix(hash ^ hash >> 29)
        }
    }

    private static func mix(_ value: UInt64) -> UInt64 {
        let product = value &* 0xBF58_476D_1CE4_E5B9
        return product ^ product >> 31
    }

    /// The values of bytes made by `set` (for messages).
    static func values(_ bytes: ArraySlice<UInt8>) -> [SQLValue] {
        var values: [SQLValue] = []
        var index = bytes.startIndex
        func number() -> UInt64 {
            var bits: UInt64 = 0
            for _ in 0..<8 {
                bits = bits << 8 | UInt64(bytes[index])
                index += 1
            }
            return bits
        }
        while index < bytes.endIndex {
            let kind = bytes[index]
            index += 1
            switch kind {
            case 1: values.append(.integer(Int64(bitPattern: number() ^ 1 << 63)))
            case 2:
                let bits = number()
                values.append(.real(Double(bitPattern: bits & 1 << 63 != 0 ? bits ^ 1 << 63 : ~bits)))
            case 3, 4:
                let count = readCount(bytes, &index)
                let content = Array(bytes[index..<index + count])
                index += count
                values.append(kind == 3 ? .text(String(decoding: content, as: UTF8.self)) : .blob(content))
            default: values.append(.null)
            }
        }
        return values
    }

    /// Reads a count as `appendCount` writes it at `index`,
    /// and moves `index` past it.
    static func readCount<Bytes: RandomAccessCollection<UInt8>>(_ bytes: Bytes, _ index: inout Int) -> Int where Bytes.Index == Int {
        var count = 0
        var shift = 0
        while bytes[index] & 0x80 != 0 {
            count |= Int(bytes[index] & 0x7F) << shift
            shift += 7
            index += 1
        }
        count |= Int(bytes[index]) << shift
        index += 1
        return count
    }
}
