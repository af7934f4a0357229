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
        for value in values { append(value) }
        hash = Self.hash(of: bytes)
    }

    /// Replaces the bytes with those of the values at `parameters` of a row being built (each given).
    mutating func set(_ row: UnsafeMutableBufferPointer<SQLValue?>, at parameters: [Int]) {
        bytes.removeAll(keepingCapacity: true)
        for parameter in parameters { append(row[parameter]!) }
        hash = Self.hash(of: bytes)
    }

    private mutating func append(_ value: SQLValue) {
        switch value {
        case .null:
            bytes.append(0)
        case .integer(let integer):
            appendNumber(1, Self.ordered(integer))
        case .real(let real):
            if real.rounded() == real, real >= -0x1p63, real < 0x1p63 {
                appendNumber(1, Self.ordered(Int64(real)))
            } else {
                appendNumber(2, Self.ordered(real))
            }
        case .text(var text):
            text.withUTF8 { appendCounted(3, $0) }
        case .blob(let blob):
            blob.withUnsafeBufferPointer { appendCounted(4, $0) }
        }
    }

    private mutating func appendNumber(_ kind: UInt8, _ bits: UInt64) {
        bytes.append(kind)
        for shift in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: bits >> UInt64(shift))) }
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

    private mutating func appendCounted(_ kind: UInt8, _ content: UnsafeBufferPointer<UInt8>) {
        bytes.append(kind)
        Self.appendCount(content.count, to: &bytes)
        bytes.append(contentsOf: content)
    }

    /// Appends a count, 7 bits a byte, low bits first (`readCount` reads it).
    static func appendCount(_ count: Int, to bytes: inout [UInt8]) {
        var count = count
        while count >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: count) | 0x80)
            count >>= 7
        }
        bytes.append(UInt8(count))
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
