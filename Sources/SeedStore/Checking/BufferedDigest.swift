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
