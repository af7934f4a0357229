/// References named before their objects (by a key on the general path, or by an identifier),
/// kept until `finish` resolves them in the order they were given.
///
/// A million dangling references must stay within the build's memory bound, so each is encoded
/// into byte chunks that never move when more come: where it comes from (its source object,
/// relationship, file, line and column, as variable-length numbers) only when that differs from
/// the previous reference's, then its position in an ordered list and its text. A to-many naming a million
/// identifiers takes about 3 bytes a reference beside the identifiers' own; a million objects
/// each naming one, about 15 (a tuple of strings took about 220).
struct PendingReferences {
    /// One reference as it was given.
    struct Reference {
        var source: ObjectReference
        var relationship: String
        /// The key or identifier, as given.
        var text: String
        /// The position reserved for it in an ordered to-many.
        var place: Int?
        var location: InputLocation
    }

    private static let chunkBytes = 1 << 20

    private var chunks: [[UInt8]] = []
    private var entry: [UInt8] = []
    private var last: Reference?
    /// Entity, relationship and file names, by number.
    private var names = NameNumbers()

    mutating func append(_ reference: Reference) {
        entry.removeAll(keepingCapacity: true)
        if let last, last.source == reference.source, last.relationship == reference.relationship, last.location == reference.location {
            entry.append(0)
        } else {
            entry.append(1)
            for number in [Int(truncatingIfNeeded: reference.source.primaryKey), reference.source.entityNumber, names.number(of: reference.source.entity),
                           names.number(of: reference.relationship), names.number(of: reference.location.file), reference.location.line, reference.location.column] {
                Self.appendNumber(number, to: &entry)
            }
        }
        Self.appendNumber(reference.place.map { $0 + 1 } ?? 0, to: &entry)
        var text = reference.text
        text.withUTF8 { bytes in
            Self.appendNumber(bytes.count, to: &entry)
            entry.append(contentsOf: bytes)
        }
        if chunks.isEmpty || chunks[chunks.count - 1].count + entry.count > chunks[chunks.count - 1].capacity {
            chunks.append([])
            chunks[chunks.count - 1].reserveCapacity(max(Self.chunkBytes, entry.count))
        }
        chunks[chunks.count - 1].append(contentsOf: entry)
        last = reference
    }

    /// Calls `body` with each reference, in the order they were appended.
    func forEach(_ body: (Reference) throws(InputError) -> Void) throws(InputError) {
        var current: Reference?
        for chunk in chunks {
            var index = 0
            while index < chunk.count {
                let repeats = chunk[index] == 0
                index += 1
                if !repeats {
                    var fields: [Int] = []
                    for _ in 0..<7 { fields.append(Self.readNumber(chunk, &index)) }
                    current = Reference(source: ObjectReference(entity: names[fields[2]], entityNumber: fields[1], primaryKey: Int64(fields[0])),
                                        relationship: names[fields[3]], text: "", place: nil,
                                        location: InputLocation(file: names[fields[4]], line: fields[5], column: fields[6]))
                }
                let place = Self.readNumber(chunk, &index)
                let count = Self.readNumber(chunk, &index)
                current!.place = place == 0 ? nil : place - 1
                current!.text = String(decoding: chunk[index..<index + count], as: UTF8.self)
                index += count
                try body(current!)
            }
        }
    }

    mutating func removeAll() {
        chunks = []
        last = nil
    }

    /// A number (zigzag: small negatives stay small), 7 bits a byte, low bits first.
    private static func appendNumber(_ number: Int, to bytes: inout [UInt8]) {
        var value = UInt64(bitPattern: Int64(number) << 1 ^ Int64(number) >> 63)
        while value >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: value) | 0x80)
            value >>= 7
        }
        bytes.append(UInt8(value))
    }

    private static func readNumber(_ bytes: [UInt8], _ index: inout Int) -> Int {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            let byte = bytes[index]
            index += 1
            value |= UInt64(byte & 0x7F) << shift
            if byte < 0x80 { break }
            shift += 7
        }
        return Int(Int64(bitPattern: value >> 1) ^ -Int64(bitPattern: value & 1))
    }

}
