/// A text source file read in chunks for the hand-written scanners (JSON, CSV): the scanner
/// works on `bytes[position..<end]` and asks for more with `refill(keeping:)`, which moves the
/// unread bytes (and a token still being read) to the front first, so a token may span chunks.
/// Memory is one chunk, or the longest token when that is longer (bounded by `maximumToken`).
/// Lines and columns are counted by the scanner through `newline(at:)`; columns are in bytes.
struct SourceBuffer {
    /// The open file and the memory of `bytes`, freed with the last copy. (A struct's fields,
    /// unlike a class's, take no exclusivity check per access: the scanners touch `position`
    /// and `bytes` once per byte.)
    private final class Memory {
        let file: InputFile
        var bytes: UnsafeMutablePointer<UInt8>

        init(file: InputFile, capacity: Int) {
            self.file = file
            bytes = .allocate(capacity: capacity)
        }

        deinit {
            bytes.deallocate()
        }
    }

    /// The file being read.
    let path: String
    private let memory: Memory
    /// The bytes in memory: `bytes[0..<end]` is read, from the file's offset `offset`.
    private(set) var bytes: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    private(set) var end = 0
    /// The scanner's place in `bytes`.
    var position = 0
    /// The file offset of `bytes[0]`.
    private var offset = 0
    /// Whether the file has been read to its end.
    private(set) var atEndOfFile = false
    /// The current line (1-based) and the file offset of its first byte.
    private(set) var line = 1
    private var lineStart = 0
    /// The file's size when it was opened, and a progress callback after each chunk.
    let totalBytes: Int
    private let progress: ((Int, Int) -> Void)?

    static let chunkSize = 256 * 1024
    /// The longest single token (a string or a CSV field) a file may hold.
    static let maximumToken = 256 << 20

    init(file: InputFile, progress: ((Int, Int) -> Void)? = nil) {
        self.path = file.path
        self.progress = progress
        totalBytes = file.size
        capacity = Self.chunkSize
        memory = Memory(file: file, capacity: capacity)
        bytes = memory.bytes
    }

    /// Reads more of the file, keeping `bytes[keep..<end]` (moved to the front, so indexes
    /// change: `position` and `keep` move with them; the caller's own indexes do not). False
    /// when the file has nothing more.
    mutating func refill(keeping keep: Int) throws(InputError) -> Bool {
        if atEndOfFile { return false }
        let kept = end - keep
        if keep > 0 {
            (bytes).update(from: bytes + keep, count: kept)
            offset += keep
            position -= keep
            end = kept
        } else if end == capacity {
            // One token fills the whole buffer: make room for more of it.
            guard capacity < Self.maximumToken else {
                throw InputError("a single value longer than \(Self.maximumToken >> 20) MiB", at: location(at: 0))
            }
            let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity * 2)
            grown.update(from: bytes, count: end)
            memory.bytes.deallocate()
            memory.bytes = grown
            bytes = grown
            capacity *= 2
        }
        let count = try memory.file.read(into: UnsafeMutableRawBufferPointer(start: bytes + end, count: capacity - end))
        if count == 0 {
            atEndOfFile = true
            return false
        }
        end += count
        progress?(offset + end, totalBytes)
        return true
    }

    /// The byte at `position`, reading more when needed; nil at the end of the file.
    @inline(__always)
    mutating func peek() throws(InputError) -> UInt8? {
        if position < end { return bytes[position] }
        guard try refill(keeping: position) else { return nil }
        return bytes[position]
    }

    /// A line break ends at `index` (the `\n`, or a lone `\r`): the next line starts after it.
    @inline(__always)
    mutating func newline(at index: Int) {
        line += 1
        lineStart = offset + index + 1
    }

    /// The 1-based column of `bytes[index]` on the current line.
    func column(at index: Int) -> Int {
        offset + index - lineStart + 1
    }

    /// Where `bytes[index]` is (on the current line).
    func location(at index: Int) -> InputLocation {
        InputLocation(file: path, line: line, column: column(at: index))
    }

    /// The bytes from `start` to `position` as a buffer (valid until the next refill).
    func slice(from start: Int, to stop: Int) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: bytes + start, count: stop - start)
    }

    /// At the file's start: reads its first bytes and skips a UTF-8 byte order mark.
    mutating func skipByteOrderMark() throws(InputError) {
        while end < 3, try refill(keeping: 0) {}
        if end >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { position = 3 }
    }
}
