import Foundation

/// Reads a binary property list (`bplist00`) one section item at a time, without building the
/// whole document: the file's bytes are held once and each item becomes a `PropertyListNode`
/// only while it is written. Memory stays within twice the file's size, where Foundation's
/// reader took 16.7 times (a 45 MB file of 1M objects peaked at 753 MB).
///
/// Everything the file says is checked before it is used: offsets and counts against the file's
/// size, object references against the object count, nesting against `maximumDepth` (which also
/// ends a document whose objects refer to themselves).
struct BinaryPropertyListReader {
    private let bytes: [UInt8]
    private let offsetSize: Int
    private let referenceSize: Int
    private let objectCount: Int
    private let topObject: Int
    private let offsetTable: Int
    private let location: InputLocation

    init(path: String) throws(InputError) {
        location = InputLocation(file: path, line: 0, column: 0)
        // The bytes, read once into their own array (no second copy through `Data`).
        guard let handle = FileHandle(forReadingAtPath: path), let size = try? handle.seekToEnd(), size < UInt64(Int32.max) else {
            throw InputError("cannot read the file", at: location)
        }
        defer { try? handle.close() }
        try? handle.seek(toOffset: 0)
        let file = [UInt8](unsafeUninitializedCapacity: Int(size)) { buffer, count in
            count = 0
            while count < buffer.count, let chunk = try? handle.read(upToCount: min(1 << 20, buffer.count - count)), !chunk.isEmpty {
                chunk.copyBytes(to: UnsafeMutableBufferPointer(rebasing: buffer[count...]))
                count += chunk.count
            }
        }
        guard file.count >= 40, file.starts(with: Array("bplist00".utf8)) else {
            throw InputError("malformed binary property list: no bplist00 header and trailer", at: location)
        }
        bytes = file
        let trailer = file.count - 32
        offsetSize = Int(file[trailer + 6])
        referenceSize = Int(file[trailer + 7])
        func field(_ start: Int) -> Int {
            let value = bigEndian(file[(trailer + start)..<(trailer + start + 8)])
            return value > UInt64(Int32.max) ? -1 : Int(value)
        }
        objectCount = field(8)
        topObject = field(16)
        offsetTable = field(24)
        guard (1...8).contains(offsetSize), (1...8).contains(referenceSize), objectCount > 0, topObject >= 0, topObject < objectCount,
              offsetTable >= 8, objectCount <= (trailer - offsetTable) / offsetSize else {
            throw InputError("malformed binary property list: its trailer does not fit the file", at: location)
        }
    }

    // MARK: - The sections

    /// The root dictionary's keys and the objects they hold, in file order.
    func sections() throws(InputError) -> [(key: String, object: Int)] {
        guard case .dictionary(let entries) = try object(topObject) else {
            throw InputError("the property list's root must be a dictionary of sections", at: location)
        }
        return try entries.map { entry throws(InputError) in (try string(entry.key), entry.value) }
    }

    /// A section's items: the objects of an array, or of a dictionary with their keys.
    func items(of section: Int, named name: String) throws(InputError) -> [(key: String?, object: Int)] {
        switch try object(section) {
        case .array(let items): return items.map { (nil, $0) }
        case .dictionary(let entries): return try entries.map { entry throws(InputError) in (try string(entry.key), entry.value) }
        default: throw InputError("section '\(name)' must be an array or a dictionary of objects", at: location)
        }
    }

    /// One object as a node, its contents nested at most `maximumDepth` levels.
    func node(_ index: Int, depth: Int = 1) throws(InputError) -> PropertyListNode {
        guard depth < PropertyListDelegate.maximumDepth else {
            throw InputError("the property list nests more than \(PropertyListDelegate.maximumDepth) levels deep", at: location)
        }
        switch try object(index) {
        case .scalar(let text, let kind): return .scalar(text, kind: kind, location)
        case .array(let items):
            var nodes: [PropertyListNode] = []
            for item in items { nodes.append(try node(item, depth: depth + 1)) }
            return .array(nodes, location)
        case .dictionary(let entries):
            var pairs: [(key: String, value: PropertyListNode)] = []
            var seen: Set<String> = []
            for entry in entries {
                let key = try string(entry.key)
                guard seen.insert(key).inserted else {
                    throw InputError("a dictionary gives the key '\(key)' twice", at: location)
                }
                pairs.append((key, try node(entry.value, depth: depth + 1)))
            }
            return .dictionary(pairs, location)
        }
    }

    // MARK: - Objects

    private enum Object {
        case scalar(String, kind: String)
        case array([Int])
        case dictionary([(key: Int, value: Int)])
    }

    private func failure(_ reason: String, _ index: Int) -> InputError {
        InputError("malformed binary property list: object \(index): \(reason)", at: location)
    }

    /// A big-endian unsigned integer of `size` bytes at `position`, checked to lie before `limit`
    /// (the objects end where the offset table begins; the table ends at the trailer).
    private func unsigned(at position: Int, size: Int, _ index: Int, limit: Int? = nil) throws(InputError) -> Int {
        guard position >= 0, size <= 8, position + size <= (limit ?? offsetTable) else { throw failure("runs past its data", index) }
        let value = bigEndian(bytes[position..<(position + size)])
        guard value <= UInt64(Int.max) else { throw failure("holds a number too large", index) }
        return Int(value)
    }

    private func object(_ index: Int) throws(InputError) -> Object {
        guard index >= 0, index < objectCount else { throw failure("is referred to but does not exist", index) }
        let start = try unsigned(at: offsetTable + index * offsetSize, size: offsetSize, index, limit: bytes.count - 32)
        guard start >= 8, start < offsetTable else { throw failure("lies outside the objects", index) }
        let marker = bytes[start]
        let info = Int(marker & 0x0F)
        var position = start + 1
        /// A count: the low nibble, or an integer object after the marker when the nibble is 0xF.
        func count() throws(InputError) -> Int {
            guard info == 0x0F else { return info }
            guard position < offsetTable, bytes[position] & 0xF0 == 0x10 else { throw failure("has a malformed count", index) }
            let size = 1 << Int(bytes[position] & 0x0F)
            let value = try unsigned(at: position + 1, size: size, index)
            position += 1 + size
            return value
        }
        /// `length` bytes after the marker (and count), checked to lie in the file.
        func payload(_ length: Int) throws(InputError) -> ArraySlice<UInt8> {
            guard length >= 0, length <= offsetTable - position else { throw failure("runs past its data", index) }
            return bytes[position..<(position + length)]
        }
        switch marker >> 4 {
        case 0x0:
            switch marker {
            case 0x08: return .scalar("NO", kind: "false")
            case 0x09: return .scalar("YES", kind: "true")
            default: throw failure("is a null or fill value, which seedgen does not take", index)
            }
        case 0x1:
            guard info <= 3 else { throw failure("is a 128-bit integer", index) }
            let raw = bigEndian(try payload(1 << info))
            let value = info == 3 ? Int64(bitPattern: raw) : Int64(raw)  // only 8-byte integers are signed
            return .scalar(String(value), kind: "number")
        case 0x2:
            let raw = try payload(1 << info)
            switch info {
            case 2: return .scalar("\(Float(bitPattern: UInt32(bigEndian(raw))))", kind: "number")
            case 3: return .scalar("\(Double(bitPattern: bigEndian(raw)))", kind: "number")
            default: throw failure("is a real of an unknown size", index)
            }
        case 0x3:
            guard marker == 0x33 else { throw failure("is a date of an unknown size", index) }
            let seconds = Double(bitPattern: bigEndian(try payload(8)))
            guard seconds.isFinite else { throw failure("is a date that is not a number", index) }
            return .scalar("@\(seconds)", kind: "date")  // exact, as the file holds it
        case 0x4:
            return .scalar(Data(try payload(try count())).base64EncodedString(), kind: "data")
        case 0x5:
            guard let text = String(bytes: try payload(try count()), encoding: .ascii) else { throw failure("is not ASCII text", index) }
            return .scalar(text, kind: "string")
        case 0x6:
            let units = try count()
            guard units <= (offsetTable - position) / 2 else { throw failure("runs past its data", index) }
            let raw = try payload(units * 2)
            let utf16 = stride(from: raw.startIndex, to: raw.endIndex, by: 2).map { UInt16(raw[$0]) << 8 | UInt16(raw[$0 + 1]) }
            return .scalar(String(decoding: utf16, as: UTF16.self), kind: "string")
        case 0xA:
            let items = try count()
            guard items <= (offsetTable - position) / referenceSize else { throw failure("runs past its data", index) }
            var references: [Int] = []
            references.reserveCapacity(items)
            for item in 0..<items { references.append(try unsigned(at: position + item * referenceSize, size: referenceSize, index)) }
            return .array(references)
        case 0xD:
            let entries = try count()
            guard entries <= (offsetTable - position) / (2 * referenceSize) else { throw failure("runs past its data", index) }
            var pairs: [(key: Int, value: Int)] = []
            pairs.reserveCapacity(entries)
            for entry in 0..<entries {
                pairs.append((try unsigned(at: position + entry * referenceSize, size: referenceSize, index),
                              try unsigned(at: position + (entries + entry) * referenceSize, size: referenceSize, index)))
            }
            return .dictionary(pairs)
        default:
            throw failure("is of a kind seedgen does not take (marker 0x\(String(marker, radix: 16)))", index)
        }
    }

    /// A dictionary key: a string object.
    private func string(_ index: Int) throws(InputError) -> String {
        guard case .scalar(let text, "string") = try object(index) else {
            throw failure("is a dictionary key that is not a string", index)
        }
        return text
    }
}

/// The unsigned big-endian number in up to 8 bytes.
private func bigEndian(_ bytes: ArraySlice<UInt8>) -> UInt64 {
    bytes.reduce(0) { $0 << 8 | UInt64($1) }
}
