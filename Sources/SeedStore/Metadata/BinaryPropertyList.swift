/// The objects of a binary property list (`bplist00`), read one at a time on demand: nothing is
/// decoded before it is asked for, and every offset, count and reference the bytes state is
/// checked against their size before it is used. Callers bound their own nesting (a document
/// whose objects refer to themselves never ends otherwise).
///
/// Shared by the reader of `Z_METADATA.Z_PLIST` (`StoreMetadata`) and the importer's binary
/// plist sections. Foundation's reader is not used on untrusted bytes: on Linux it crashed on a
/// crafted set object (found by the metadata fuzz target) and takes 16.7 times a file's size.
package struct BinaryPropertyList: Sendable {
    /// What a property list's bytes do not hold up to.
    package struct Failure: Error, Sendable, CustomStringConvertible {
        /// Why, naming the object when one is at fault.
        package var description: String
    }

    /// One object: a value, or the references of a container's items.
    package enum Object: Sendable {
        /// A boolean (`YES`/`NO`), integer or real number (as text), date (`@` seconds since
        /// 2001, exact) or string; `kind` is `true`, `false`, `number`, `date` or `string`.
        case scalar(String, kind: String)
        case data(ArraySlice<UInt8>)
        case array([Int])
        case dictionary([(key: Int, value: Int)])
        /// A keyed archiver's reference (`CF$UID`): an index into its `$objects`.
        case uid(Int)
    }

    private let bytes: [UInt8]
    private let offsetSize: Int
    private let referenceSize: Int
    private let objectCount: Int
    private let offsetTable: Int
    /// The root object's index.
    package let topObject: Int

    /// The property list in `bytes`, its header and trailer checked.
    package init(bytes: [UInt8]) throws(Failure) {
        guard bytes.count >= 40, bytes.starts(with: Array("bplist00".utf8)) else {
            throw Failure(description: "no bplist00 header and trailer")
        }
        self.bytes = bytes
        let trailer = bytes.count - 32
        offsetSize = Int(bytes[trailer + 6])
        referenceSize = Int(bytes[trailer + 7])
        func field(_ start: Int) -> Int {
            let value = bigEndian(bytes[(trailer + start)..<(trailer + start + 8)])
            return value > UInt64(Int32.max) ? -1 : Int(value)
        }
        objectCount = field(8)
        topObject = field(16)
        offsetTable = field(24)
        guard (1...8).contains(offsetSize), (1...8).contains(referenceSize), objectCount > 0, topObject >= 0, topObject < objectCount,
              offsetTable >= 8, offsetTable <= trailer, objectCount <= (trailer - offsetTable) / offsetSize else {
            throw Failure(description: "its trailer does not fit the file")
        }
    }

    private func failure(_ reason: String, _ index: Int) -> Failure {
        Failure(description: "object \(index): \(reason)")
    }

    /// A big-endian unsigned integer of `size` bytes at `position`, checked to lie before `limit`
    /// (the objects end where the offset table begins; the table ends at the trailer).
    private func unsigned(at position: Int, size: Int, _ index: Int, limit: Int? = nil) throws(Failure) -> Int {
        guard position >= 0, size <= 8, position + size <= (limit ?? offsetTable) else { throw failure("runs past its data", index) }
        let value = bigEndian(bytes[position..<(position + size)])
        guard value <= UInt64(Int.max) else { throw failure("holds a number too large", index) }
        return Int(value)
    }

    /// Where the object at `index` starts in the file (a byte offset), checked.
    package func offset(of index: Int) throws(Failure) -> Int {
        guard index >= 0, index < objectCount else { throw failure("is referred to but does not exist", index) }
        let start = try unsigned(at: offsetTable + index * offsetSize, size: offsetSize, index, limit: bytes.count - 32)
        guard start >= 8, start < offsetTable else { throw failure("lies outside the objects", index) }
        return start
    }

    /// The file's size in bytes: a bound on how many references its objects hold.
    package var byteCount: Int { bytes.count }

    /// The object at `index`; containers give their items' indexes, not the items.
    package func object(_ index: Int) throws(Failure) -> Object {
        let start = try offset(of: index)
        let marker = bytes[start]
        let info = Int(marker & 0x0F)
        var position = start + 1
        /// A count: the low nibble, or an integer object after the marker when the nibble is 0xF.
        func count() throws(Failure) -> Int {
            guard info == 0x0F else { return info }
            guard position < offsetTable, bytes[position] & 0xF0 == 0x10 else { throw failure("has a malformed count", index) }
            let size = 1 << Int(bytes[position] & 0x0F)
            let value = try unsigned(at: position + 1, size: size, index)
            position += 1 + size
            return value
        }
        /// `length` bytes after the marker (and count), checked to lie in the file.
        func payload(_ length: Int) throws(Failure) -> ArraySlice<UInt8> {
            guard length >= 0, length <= offsetTable - position else { throw failure("runs past its data", index) }
            return bytes[position..<(position + length)]
        }
        /// `items` references of `width` each after the count, checked to lie in the file.
        func references(_ items: Int, startingAt first: Int = 0) throws(Failure) -> [Int] {
            var references: [Int] = []
            references.reserveCapacity(items)
            for item in first..<(first + items) { references.append(try unsigned(at: position + item * referenceSize, size: referenceSize, index)) }
            return references
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
            return .data(try payload(try count()))
        case 0x5:
            let ascii = try payload(try count())
            guard ascii.allSatisfy({ $0 < 0x80 }) else { throw failure("is not ASCII text", index) }
            return .scalar(String(decoding: ascii, as: UTF8.self), kind: "string")
        case 0x6:
            let units = try count()
            guard units <= (offsetTable - position) / 2 else { throw failure("runs past its data", index) }
            let raw = try payload(units * 2)
            let utf16 = stride(from: raw.startIndex, to: raw.endIndex, by: 2).map { UInt16(raw[$0]) << 8 | UInt16(raw[$0 + 1]) }
            // Refused, not repaired: String(decoding:) would put U+FFFD for a lone surrogate.
            guard let text = String(validating: utf16, as: UTF16.self) else {
                throw failure("is a string with a lone UTF-16 surrogate, which no text can hold", index)
            }
            return .scalar(text, kind: "string")
        case 0x8:
            let raw = bigEndian(try payload(info + 1))
            guard raw <= UInt64(Int32.max) else { throw failure("is a UID too large", index) }
            return .uid(Int(raw))
        case 0xA:
            let items = try count()
            guard items <= (offsetTable - position) / referenceSize else { throw failure("runs past its data", index) }
            return .array(try references(items))
        case 0xD:
            let entries = try count()
            guard entries <= (offsetTable - position) / (2 * referenceSize) else { throw failure("runs past its data", index) }
            let keys = try references(entries)
            let values = try references(entries, startingAt: entries)
            return .dictionary(Array(zip(keys, values)).map { (key: $0.0, value: $0.1) })
        default:
            throw failure("is of a kind seedgen does not take (marker 0x\(String(marker, radix: 16)))", index)
        }
    }

    /// A string object, such as a dictionary key.
    package func string(_ index: Int) throws(Failure) -> String {
        guard case .scalar(let text, "string") = try object(index) else {
            throw failure("is not a string", index)
        }
        return text
    }
}

/// The unsigned big-endian number in up to 8 bytes.
private func bigEndian(_ bytes: ArraySlice<UInt8>) -> UInt64 {
    bytes.reduce(0) { $0 << 8 | UInt64($1) }
}
