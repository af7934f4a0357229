import Foundation

/// A `bplist00` writer for the tests (Foundation's own cannot spell a lone surrogate on every
/// platform): 8-byte offsets and 4-byte references, objects written once each in order.
struct BinaryPlistWriter {
    indirect enum Object {
        case integer(Int64), real(Double), boolean(Bool), date(Double), data([UInt8])
        case string(Sample.Text)
        case array([Object])
        case dictionary([(String, Object)])
        /// A dictionary whose keys are any text (a keyed section's natural keys).
        case keyedDictionary([(Sample.Text, Object)])
    }

    private var objects: [[UInt8]] = []

    static func write(_ root: Object) -> [UInt8] {
        var writer = BinaryPlistWriter()
        let top = writer.add(root)
        var bytes = Array("bplist00".utf8)
        var offsets: [Int] = []
        for object in writer.objects {
            offsets.append(bytes.count)
            bytes += object
        }
        let table = bytes.count
        for offset in offsets { bytes += bigEndian(UInt64(offset), 8) }
        bytes += [0, 0, 0, 0, 0, 0, 8, 4]
        bytes += bigEndian(UInt64(writer.objects.count), 8) + bigEndian(UInt64(top), 8) + bigEndian(UInt64(table), 8)
        return bytes
    }

    static func bigEndian(_ value: UInt64, _ size: Int) -> [UInt8] {
        (0..<size).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * UInt64($0))) }
    }

    private static func marker(_ kind: UInt8, count: Int) -> [UInt8] {
        count < 15 ? [kind << 4 | UInt8(count)] : [kind << 4 | 0x0F, 0x13] + bigEndian(UInt64(count), 8)
    }

    /// Adds `object` (its contents first) and returns its index.
    private mutating func add(_ object: Object) -> Int {
        var bytes: [UInt8]
        switch object {
        case .integer(let value): bytes = [0x13] + Self.bigEndian(UInt64(bitPattern: value), 8)
        case .real(let value): bytes = [0x23] + Self.bigEndian(value.bitPattern, 8)
        case .boolean(let value): bytes = [value ? 0x09 : 0x08]
        case .date(let seconds): bytes = [0x33] + Self.bigEndian(seconds.bitPattern, 8)
        case .data(let data): bytes = Self.marker(0x4, count: data.count) + data
        case .string(let text):
            if let string = text.string, string.unicodeScalars.allSatisfy(\.isASCII) {
                bytes = Self.marker(0x5, count: string.utf8.count) + Array(string.utf8)
            } else {
                let units = text.utf16
                bytes = Self.marker(0x6, count: units.count) + units.flatMap { Self.bigEndian(UInt64($0), 2) }
            }
        case .array(let items):
            let references = items.map { add($0) }
            bytes = Self.marker(0xA, count: references.count) + references.flatMap { Self.bigEndian(UInt64($0), 4) }
        case .dictionary(let entries):
            return add(.keyedDictionary(entries.map { (Sample.Text($0.0), $0.1) }))
        case .keyedDictionary(let entries):
            let keys = entries.map { add(.string($0.0)) }
            let values = entries.map { add($0.1) }
            bytes = Self.marker(0xD, count: keys.count) + (keys + values).flatMap { Self.bigEndian(UInt64($0), 4) }
        }
        objects.append(bytes)
        return objects.count - 1
    }
}

extension SampleFormat {
    static func binaryPlist(_ samples: [Sample]) -> [UInt8] {
        let keyed = keyed(samples)
        let items = samples.map { sample -> BinaryPlistWriter.Object in
            var entries = sample.orderedValues.filter { !(keyed && $0.name == "name") }.map { name, value -> (String, BinaryPlistWriter.Object) in
                switch value {
                case .number(let literal) where name.hasPrefix("i"):
                    return (name, Int64(literal).map { .integer($0) } ?? .string(Sample.Text(literal)))
                case .number(let literal) where name != "dec":
                    // A real the file can hold exactly as written; otherwise its text.
                    if let value = Double(literal), !value.isFinite || Sample.Given.real(literal) != nil { return (name, .real(value)) }
                    return (name, .string(Sample.Text(literal)))
                case .boolean(let flag): return (name, .boolean(flag))
                case .data(let bytes): return (name, .data(bytes))
                case .date(let seconds): return (name, .date(seconds))
                default: return (name, .string(value.sourceText))
                }
            }
            if let parent = sample.parent { entries.append(("parent", .string(parent))) }
            entries.append(("@id", .string(Sample.Text(sample.id))))
            for (name, list) in sample.lists { entries.append(("@\(name)", .array(list.map { .string(Sample.Text($0)) }))) }
            return .dictionary(entries)
        }
        let section: BinaryPlistWriter.Object = keyed ? .keyedDictionary(zip(samples, items).map { ($0.name, $1) }) : .array(items)
        return BinaryPlistWriter.write(.dictionary([("Samples", section)]))
    }
}
