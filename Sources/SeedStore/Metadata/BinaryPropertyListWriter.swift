/// Writes binary property lists (`bplist00`) deterministically: dictionary keys in byte order,
/// objects numbered depth-first, no sharing. Foundation's writer changes its key order from
/// run to run on Linux, which would make stores differ byte for byte.
enum BinaryPropertyListWriter {
    static func encode(_ root: PropertyListValue) -> [UInt8] {
        var references: [[Int]] = []
        // Number the objects first (depth-first), so that every reference is known.
        var flat: [PropertyListValue] = []
        func number(_ value: PropertyListValue) -> Int {
            let index = flat.count
            flat.append(value)
            references.append([])
            switch value {
            case .array(let items):
                references[index] = items.map { number($0) }
            case .dictionary(let entries):
                let keys = entries.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
                let keyRefs = keys.map { number(.string($0)) }
                let valueRefs = keys.map { number(entries[$0]!) }
                references[index] = keyRefs + valueRefs
            default:
                break
            }
            return index
        }
        _ = number(root)
        var stream = ObjectStream(objectCount: flat.count)
        for (index, value) in flat.enumerated() {
            switch value {
            case .array, .dictionary: stream.appendContainer(dictionary: value.isDictionary, references: references[index])
            default: stream.append(value)
            }
        }
        flat = []  // the values and references go back before the offset table is written
        references = []
        return stream.finish()
    }

    /// A binary property list written object by object, in the order of their numbers, straight
    /// into its bytes: a list of a million strings makes no million small arrays on the way.
    /// The caller numbers the objects (object 0 is the root) and gives containers' references.
    struct ObjectStream {
        private let objectCount: Int
        private let referenceSize: Int
        private var output = Array("bplist00".utf8)
        /// Where each object starts: 4 bytes each while the document is under 4 GB (a million
        /// strings' archive has two million objects), then in `wideOffsets`.
        private var offsets: [UInt32] = []
        private var wideOffsets: [Int] = []

        /// A stream of `objectCount` objects; `capacity`, when given, is the most bytes the
        /// document will take (the output then never grows by copying itself).
        init(objectCount: Int, capacity: Int? = nil) {
            self.objectCount = objectCount
            referenceSize = byteCount(for: UInt64(objectCount))
            offsets.reserveCapacity(objectCount)
            if let capacity { output.reserveCapacity(capacity) }
        }

        /// Notes that the next object starts here. Offsets only grow: once one passes 4 bytes,
        /// every later one does.
        private mutating func startObject() {
            if wideOffsets.isEmpty, let offset = UInt32(exactly: output.count) {
                offsets.append(offset)
            } else {
                wideOffsets.append(output.count)
            }
        }

        /// The next object: a value that is no container.
        mutating func append(_ value: PropertyListValue) {
            startObject()
            switch value {
            case .boolean(let flag):
                output.append(flag ? 0x09 : 0x08)
            case .integer(let number):
                appendInteger(number, to: &output)
            case .real(let number):
                output.append(0x23)
                appendBigEndian(number.bitPattern, size: 8, to: &output)
            case .date(let seconds):
                output.append(0x33)
                appendBigEndian(seconds.bitPattern, size: 8, to: &output)
            case .data(let bytes):
                appendMarker(0x40, count: bytes.count, to: &output)
                output += bytes
            case .string(let text):
                if text.utf8.allSatisfy({ $0 < 0x80 }) {
                    appendMarker(0x50, count: text.utf8.count, to: &output)
                    output += text.utf8
                } else {
                    appendMarker(0x60, count: text.utf16.count, to: &output)
                    for unit in text.utf16 { appendBigEndian(UInt64(unit), size: 2, to: &output) }
                }
            case .uid(let number):
                let size = byteCount(for: number)
                output.append(0x80 | UInt8(size - 1))
                appendBigEndian(number, size: size, to: &output)
            case .array(let items):
                preconditionFailure("an array of \(items.count) items is written by appendContainer")
            case .dictionary(let entries):
                preconditionFailure("a dictionary of \(entries.count) entries is written by appendContainer")
            }
        }

        /// The next object: the string whose UTF-8 bytes are `utf8`, as `append(.string(_:))`
        /// writes it (ASCII as it is, anything else in UTF-16).
        mutating func appendString(utf8: ArraySlice<UInt8>) {
            if utf8.allSatisfy({ $0 < 0x80 }) {
                startObject()
                appendMarker(0x50, count: utf8.count, to: &output)
                output += utf8
            } else {
                append(.string(String(decoding: utf8, as: UTF8.self)))
            }
        }

        /// The next object: an array of the objects `references` numbers, or a dictionary whose
        /// `references` are its keys' numbers, then its values' in the same order.
        mutating func appendContainer(dictionary: Bool, references: some Collection<Int>) {
            startObject()
            appendMarker(dictionary ? 0xD0 : 0xA0, count: references.count / (dictionary ? 2 : 1), to: &output)
            for reference in references { appendBigEndian(UInt64(reference), size: referenceSize, to: &output) }
        }

        /// The document: the objects, their offset table and the trailer.
        consuming func finish() -> [UInt8] {
            precondition(offsets.count + wideOffsets.count == objectCount, "\(offsets.count + wideOffsets.count) objects written of \(objectCount)")
            let offsetTableStart = output.count
            let offsetSize = byteCount(for: UInt64(offsetTableStart))
            for offset in offsets {
                appendBigEndian(UInt64(offset), size: offsetSize, to: &output)
            }
            for offset in wideOffsets {
                appendBigEndian(UInt64(offset), size: offsetSize, to: &output)
            }
            output += [UInt8](repeating: 0, count: 6)
            output += [UInt8(offsetSize), UInt8(referenceSize)]
            appendBigEndian(UInt64(objectCount), size: 8, to: &output)
            appendBigEndian(0, size: 8, to: &output)
            appendBigEndian(UInt64(offsetTableStart), size: 8, to: &output)
            return output
        }
    }

    /// An integer object: 1, 2, 4 or 8 bytes; negative numbers always take 8.
    private static func appendInteger(_ number: Int64, to output: inout [UInt8]) {
        if number < 0 {
            output.append(0x13)
            appendBigEndian(UInt64(bitPattern: number), size: 8, to: &output)
            return
        }
        let size = byteCount(for: UInt64(number))
        let exponent: UInt8 = size == 1 ? 0 : size == 2 ? 1 : size == 4 ? 2 : 3
        output.append(0x10 | exponent)
        appendBigEndian(UInt64(number), size: size, to: &output)
    }

    /// A type marker with its count in the low nibble, or 0xF and a following integer object.
    private static func appendMarker(_ type: UInt8, count: Int, to output: inout [UInt8]) {
        if count < 15 {
            output.append(type | UInt8(count))
        } else {
            output.append(type | 0x0F)
            appendInteger(Int64(count), to: &output)
        }
    }

    static func byteCount(for value: UInt64) -> Int {
        value <= 0xFF ? 1 : value <= 0xFFFF ? 2 : value <= 0xFFFF_FFFF ? 4 : 8
    }

    private static func appendBigEndian(_ value: UInt64, size: Int, to output: inout [UInt8]) {
        for shift in (0..<size).reversed() { output.append(UInt8(truncatingIfNeeded: value >> (8 * UInt64(shift)))) }
    }
}

extension PropertyListValue {
    fileprivate var isDictionary: Bool {
        if case .dictionary = self { return true }
        return false
    }
}
