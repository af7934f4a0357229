/// Writes binary property lists (`bplist00`) deterministically: dictionary keys in byte order,
/// objects numbered depth-first, no sharing. Foundation's writer changes its key order from
/// run to run on Linux, which would make stores differ byte for byte.
enum BinaryPropertyListWriter {
    static func encode(_ root: PropertyListValue) -> [UInt8] {
        var objects: [[UInt8]] = []
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
        let referenceSize = byteCount(for: UInt64(flat.count))
        for (index, value) in flat.enumerated() {
            objects.append(encodeObject(value, references: references[index], referenceSize: referenceSize))
        }
        var output = Array("bplist00".utf8)
        var offsets: [Int] = []
        for object in objects {
            offsets.append(output.count)
            output += object
        }
        let offsetTableStart = output.count
        let offsetSize = byteCount(for: UInt64(offsetTableStart))
        for offset in offsets {
            output += bigEndian(UInt64(offset), size: offsetSize)
        }
        output += [UInt8](repeating: 0, count: 6)
        output += [UInt8(offsetSize), UInt8(referenceSize)]
        output += bigEndian(UInt64(flat.count), size: 8)
        output += bigEndian(0, size: 8)
        output += bigEndian(UInt64(offsetTableStart), size: 8)
        return output
    }

    private static func encodeObject(_ value: PropertyListValue, references: [Int], referenceSize: Int) -> [UInt8] {
        switch value {
        case .boolean(let flag):
            return [flag ? 0x09 : 0x08]
        case .integer(let number):
            return encodeInteger(number)
        case .real(let number):
            return [0x23] + bigEndian(number.bitPattern, size: 8)
        case .date(let seconds):
            return [0x33] + bigEndian(seconds.bitPattern, size: 8)
        case .data(let bytes):
            return marker(0x40, count: bytes.count) + bytes
        case .string(let text):
            if text.utf8.allSatisfy({ $0 < 0x80 }) {
                return marker(0x50, count: text.utf8.count) + Array(text.utf8)
            }
            let units = Array(text.utf16)
            return marker(0x60, count: units.count) + units.flatMap { bigEndian(UInt64($0), size: 2) }
        case .uid(let number):
            let size = byteCount(for: number)
            return [0x80 | UInt8(size - 1)] + bigEndian(number, size: size)
        case .array, .dictionary:
            let count = references.count / (value.isDictionary ? 2 : 1)
            return marker(value.isDictionary ? 0xD0 : 0xA0, count: count)
                + references.flatMap { bigEndian(UInt64($0), size: referenceSize) }
        }
    }

    /// An integer object: 1, 2, 4 or 8 bytes; negative numbers always take 8.
    private static func encodeInteger(_ number: Int64) -> [UInt8] {
        if number < 0 { return [0x13] + bigEndian(UInt64(bitPattern: number), size: 8) }
        let size = byteCount(for: UInt64(number))
        let exponent: UInt8 = size == 1 ? 0 : size == 2 ? 1 : size == 4 ? 2 : 3
        return [0x10 | exponent] + bigEndian(UInt64(number), size: size)
    }

    /// A type marker with its count in the low nibble, or 0xF and a following integer object.
    private static func marker(_ type: UInt8, count: Int) -> [UInt8] {
        count < 15 ? [type | UInt8(count)] : [type | 0x0F] + encodeInteger(Int64(count))
    }

    private static func byteCount(for value: UInt64) -> Int {
        value <= 0xFF ? 1 : value <= 0xFFFF ? 2 : value <= 0xFFFF_FFFF ? 4 : 8
    }

    private static func bigEndian(_ value: UInt64, size: Int) -> [UInt8] {
        (0..<size).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * UInt64($0))) }
    }
}

extension PropertyListValue {
    fileprivate var isDictionary: Bool {
        if case .dictionary = self { return true }
        return false
    }
}
