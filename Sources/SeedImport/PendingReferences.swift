/// References named before their objects (by a key on the general path, or by an identifier),
/// kept until `finish` resolves them in the order they were given.
///
/// A million dangling references must stay within the build's memory bound, so a reference is
/// one fixed record of 56 bytes (numbers for its source, relationship and file) in chunks that
/// never move when more come, and its text goes into byte chunks beside them: about 56 bytes
/// and the text's, where a tuple of strings took about 220.
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

    private struct Record {
        var sourcePrimaryKey: Int64
        var place: Int64
        var textChunk: UInt32
        var textStart: UInt32
        var textCount: UInt32
        var file: UInt32
        var line: UInt32
        var column: UInt32
        var sourceEntityNumber: UInt32
        var sourceEntity: UInt32
        var relationship: UInt32
    }

    private static let recordsPerChunk = 1 << 14
    private static let textChunkBytes = 1 << 20
    private static let noPlace = Int64.min

    private var records: [[Record]] = []
    private var texts: [[UInt8]] = []
    /// Entity, relationship and file names, by number.
    private var names: [String] = []
    private var nameNumbers: [String: Int] = [:]

    var isEmpty: Bool { records.isEmpty }

    mutating func append(_ reference: Reference) {
        var text = reference.text
        let (chunk, start, count) = text.withUTF8 { store($0) }
        let record = Record(
            sourcePrimaryKey: reference.source.primaryKey, place: reference.place.map(Int64.init) ?? Self.noPlace,
            textChunk: chunk, textStart: start, textCount: count,
            file: UInt32(number(of: reference.location.file)),
            line: UInt32(clamping: reference.location.line), column: UInt32(clamping: reference.location.column),
            sourceEntityNumber: UInt32(reference.source.entityNumber), sourceEntity: UInt32(number(of: reference.source.entity)),
            relationship: UInt32(number(of: reference.relationship)))
        if records.last.map({ $0.count == Self.recordsPerChunk }) ?? true {
            records.append([])
            records[records.count - 1].reserveCapacity(Self.recordsPerChunk)
        }
        records[records.count - 1].append(record)
    }

    /// Calls `body` with each reference, in the order they were appended.
    func forEach(_ body: (Reference) throws(InputError) -> Void) throws(InputError) {
        for chunk in records {
            for record in chunk {
                let text = String(decoding: texts[Int(record.textChunk)][Int(record.textStart)..<Int(record.textStart + record.textCount)], as: UTF8.self)
                let source = ObjectReference(entity: names[Int(record.sourceEntity)], entityNumber: Int(record.sourceEntityNumber),
                                             primaryKey: record.sourcePrimaryKey)
                try body(Reference(source: source, relationship: names[Int(record.relationship)], text: text,
                                   place: record.place == Self.noPlace ? nil : Int(record.place),
                                   location: InputLocation(file: names[Int(record.file)], line: Int(record.line), column: Int(record.column))))
            }
        }
    }

    mutating func removeAll() {
        records = []
        texts = []
    }

    /// Copies `bytes` into the last text chunk, or a new one when they do not fit.
    private mutating func store(_ bytes: UnsafeBufferPointer<UInt8>) -> (chunk: UInt32, start: UInt32, count: UInt32) {
        if texts.isEmpty || texts[texts.count - 1].count + bytes.count > texts[texts.count - 1].capacity {
            texts.append([])
            texts[texts.count - 1].reserveCapacity(max(Self.textChunkBytes, bytes.count))
        }
        let start = texts[texts.count - 1].count
        texts[texts.count - 1].append(contentsOf: bytes)
        return (UInt32(texts.count - 1), UInt32(start), UInt32(bytes.count))
    }

    private mutating func number(of name: String) -> Int {
        if let known = nameNumbers[name] { return known }
        names.append(name)
        nameNumbers[name] = names.count - 1
        return names.count - 1
    }
}
