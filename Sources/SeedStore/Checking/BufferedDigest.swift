import SeedModel

/// SHA-256 fed through a 256 KiB raw buffer: one `update` per buffer instead of one per value.
struct BufferedDigest: ~Copyable {
    private var hasher = SHA256()
    private let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 18, alignment: 8)
    private var count = 0

    deinit {
        buffer.deallocate()
    }

    /// Makes room for `needed` bytes, flushing when the buffer would overflow.
    private mutating func reserve(_ needed: Int) {
        if count + needed > buffer.count { flush() }
    }

    mutating func feed(_ bytes: UnsafeRawBufferPointer) {
        if bytes.count > buffer.count / 2 {
            flush()
            hasher.update(bufferPointer: bytes)
            return
        }
        reserve(bytes.count)
        if let base = bytes.baseAddress, !bytes.isEmpty {
            (buffer.baseAddress! + count).copyMemory(from: base, byteCount: bytes.count)
        }
        count += bytes.count
    }

    mutating func feed(byte: UInt8) {
        reserve(1)
        buffer[count] = byte
        count += 1
    }

    /// A tag byte and 8 little-endian bytes.
    mutating func feed(tag: UInt8, _ value: UInt64) {
        reserve(9)
        buffer[count] = tag
        (buffer.baseAddress! + count + 1).storeBytes(of: value.littleEndian, as: UInt64.self)
        count += 9
    }

    mutating func feed(count value: Int) {
        reserve(8)
        (buffer.baseAddress! + count).storeBytes(of: UInt64(value).littleEndian, as: UInt64.self)
        count += 8
    }

    // A stored value, as the content digest encodes it: a type tag (0 null, 1 integer, 2 real,
    // 3 text, 4 blob) and its bytes (numbers as 8 little-endian bytes; text and blobs after their
    // length). One encoding for the values read back (`Statement.feedRow`) and those digested
    // as they are written (`ContentDigest.StreamedPieces`).

    mutating func feedNull() {
        feed(byte: 0)
    }

    mutating func feed(integer value: Int64) {
        feed(tag: 1, UInt64(bitPattern: value))
    }

    mutating func feed(real value: Double) {
        feed(tag: 2, value.bitPattern)
    }

    mutating func feed(text bytes: UnsafeRawBufferPointer) {
        feed(byte: 3)
        feed(count: bytes.count)
        feed(bytes)
    }

    mutating func feed(blob bytes: UnsafeRawBufferPointer) {
        feed(byte: 4)
        feed(count: bytes.count)
        feed(bytes)
    }

    /// A string and a terminating zero.
    mutating func feed(_ text: String) {
        var text = text
        text.withUTF8 { feed(UnsafeRawBufferPointer($0)) }
        feed(byte: 0)
    }

    private mutating func flush() {
        hasher.update(bufferPointer: UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
        count = 0
    }

    consuming func finalize() -> String {
        flush()
        return SourceDigest.hex(hasher)
    }

    consuming func finalizeBytes() -> [UInt8] {
        flush()
        return Array(hasher.finalize())
    }
}

extension BufferedDigest {
    /// Feeds `value` as `Statement.feedRow` reads it back from a column of `affinity`, for
    /// `ContentDigest.StreamedPieces`; false when its stored form is not certain. (A method: a
    /// function given `&digest!` copied the digest out of its optional and back for each value.)
    mutating func feed(stored value: SQLValue?, as affinity: ContentDigest.RowShape.Affinity) -> Bool {
        switch value {
        case nil, .null?:
            feedNull()
        case .integer(let number)?:
            guard affinity != .real && affinity != .text else { return false }
            feed(integer: number)
        case .real(let number)?:
            guard number.isFinite, !(number == 0 && number.sign == .minus), affinity != .text else { return false }
            if (affinity == .integer || affinity == .numeric) && number.rounded(.towardZero) == number {
                // A number column keeps an integral REAL as an INTEGER.
                guard number.magnitude < 0x1p53 else { return false }
                feed(integer: Int64(number))
            } else {
                feed(real: number)
            }
        case .text(var text)?:
            guard affinity == .text || affinity == .blob else { return false }
            text.withUTF8 { feed(text: UnsafeRawBufferPointer($0)) }
        case .blob(let bytes)?:
            bytes.withUnsafeBytes { feed(blob: $0) }
        }
        return true
    }
}
