import SeedModel

/// Imports a CSV or TSV file (RFC 4180) of one entity's objects: the file's name is a section
/// name (`Products.csv` is Product's, `SectionNames`) unless the entity is given; the header row
/// names attributes, to-one relationships (the field is the destination's key, compound keys
/// separated by `|`), `@id` and `@<relationship>` (identifiers separated by spaces). A row is
/// one object, written as soon as it is read (`SourceItem`).
///
/// Fields are separated by commas (or the delimiter given: tabs in TSV, which is read by the same
/// rules) and records by CRLF or LF; a quoted field may hold commas,
/// line breaks and doubled quotes. An empty field is nil (the value is not given); `""` is the
/// empty string. Blank lines are skipped.
struct CSVSourceReader {
    private var input: SourceBuffer
    private let entity: EntityDescription
    private let writer: SectionWriter
    private let flat = SourceItem(syntax: .csv)
    /// The byte between fields.
    private let delimiter: UInt8
    /// The header's names, as bytes (each row's values are keyed by them).
    private var names: [[UInt8]] = []
    /// The fields of the record being read: bytes, each field's range, whether it was quoted,
    /// and its line and column.
    private var bytes: [UInt8] = []
    private var fields: [(range: Range<Int>, quoted: Bool, line: Int, column: Int)] = []
    /// Where the record being read starts.
    private var recordStart = (line: 1, column: 1)

    /// A reader of `file` whose fields `delimiter` separates (a comma; a tab in TSV); `entity`
    /// names the entity when the file name does not.
    init(file: InputFile, entity: String?, delimiter: Unicode.Scalar = ",", repository: SeedRepository,
         progress: ((Int, Int) -> Void)? = nil) throws(InputError) {
        let path = file.path
        guard ImportOptions.canDelimitFields(delimiter) else {
            throw InputError("'\(delimiter.escaped(asASCII: true))' cannot separate fields (a delimiter is one ASCII character other than a quote, a line break, a letter or a digit)", at: InputLocation(file: path, line: 0, column: 0))
        }
        self.delimiter = UInt8(delimiter.value)
        input = SourceBuffer(file: file, progress: progress)
        var writer = SectionWriter(repository: repository)
        writer.syntax = .csv
        self.writer = writer
        self.entity = try writer.entity(ofFile: path, given: entity)
    }

    /// Reads the header, then writes one object per row.
    mutating func read() throws(InputError) {
        try input.skipByteOrderMark()
        guard try readRecord() else { throw InputError("the CSV file is empty: it needs a header row of attribute names", at: input.location(at: 0)) }
        let plan = try writer.repository.plan(for: entity.name, at: InputLocation(file: input.path, line: 1, column: 1))
        try readHeader(plan)
        while try readRecord(atMost: names.count) {
            let first = fields[0]
            guard fields.count == names.count else {
                throw InputError("a row of \(fields.count) field(s); the header has \(names.count)", at: InputLocation(file: input.path, line: first.line, column: 1))
            }
            flat.start(at: InputLocation(file: input.path, line: first.line, column: 1))
            for (index, field) in fields.enumerated() where field.quoted || !field.range.isEmpty {
                flat.startScalar(.key, line: first.line, column: field.column)
                names[index].withUnsafeBufferPointer { flat.append($0) }
                try flat.endScalar()
                flat.startScalar(.string, line: field.line, column: field.column)
                bytes.withUnsafeBufferPointer { flat.append(UnsafeBufferPointer(rebasing: $0[field.range])) }
                try flat.endScalar()
            }
            try flat.end()
            if try !flat.write(plan, to: writer.repository) {
                try writer.writeSectionItem(.dictionary(flat.frame().entries, flat.location), entity: entity, key: nil)
            }
        }
    }

    /// Checks the header's names against the entity: each an attribute, a to-one, `@id`, `@nil`
    /// (attributes given nil, separated by spaces) or an `@<relationship>`, once.
    private mutating func readHeader(_ plan: EntityPlan) throws(InputError) {
        var seen: Set<[UInt8]> = []
        for field in fields {
            let name = String(decoding: bytes[field.range], as: UTF8.self)
            let location = InputLocation(file: input.path, line: field.line, column: field.column)
            if name.isEmpty { throw InputError("column \(names.count + 1) of the header has no name", at: location) }
            if !seen.insert(Array(name.utf8)).inserted { throw InputError("the header names '\(name.prefix(80))' twice", at: location) }
            if name.first == "@" {
                guard name == "@id" || name == "@nil" || plan.relationships[String(name.dropFirst())] != nil else {
                    throw InputError("\(entity.name) has no relationship '\(name.dropFirst())' (@id names the object itself)", at: location)
                }
            } else {
                switch plan.property(named: name) {
                case .attribute, .toOne, .enumCase: break
                case .toMany:
                    throw InputError("\(entity.name).\(name) is a to-many relationship: give it from the other side (a to-one column there), or by identifiers in an @\(name) column", at: location)
                case .unknown:
                    throw plan.unknownProperty(name, at: location, toOne: true)
                }
            }
            names.append(Array(name.utf8))
        }
    }

    /// The most fields a header may have: more than any entity has properties.
    static let maximumHeaderFields = 10_000

    /// Reads the next record's fields; false at the end of the file. Blank lines are skipped.
    /// A record of more than `maximum` fields (the header's count) is an error at the first field
    /// too many, and one longer than `SourceBuffer.maximumToken` at its start, as soon as read.
    private mutating func readRecord(atMost maximum: Int = maximumHeaderFields) throws(InputError) -> Bool {
        bytes.removeAll(keepingCapacity: true)
        fields.removeAll(keepingCapacity: true)
        while true {
            guard let byte = try input.peek() else { return false }
            if byte == 0x0A {
                input.newline(at: input.position)
                input.position += 1
            } else if byte == 0x0D {
                input.position += 1
            } else {
                break
            }
        }
        recordStart = (input.line, input.column(at: input.position))
        while true {
            let (line, column) = (input.line, input.column(at: input.position))
            guard fields.count < maximum else {
                throw InputError("a row of more than \(maximum) field(s); the \(maximum == names.count ? "header has \(maximum)" : "header may have at most \(maximum)")", at: InputLocation(file: input.path, line: line, column: column))
            }
            let start = bytes.count
            let quoted = try input.peek() == UInt8(ascii: "\"")
            if quoted {
                try readQuoted(line: line, column: column)
            } else {
                try readPlain()
            }
            if bytes[start...].contains(where: { $0 >= 0x80 }), String(validating: bytes[start...], as: UTF8.self) == nil {
                throw InputError("a field that is not UTF-8", at: InputLocation(file: input.path, line: line, column: column))
            }
            fields.append((start..<bytes.count, quoted, line, column))
            // The field's end: the delimiter, a line break or the end of the file.
            guard let byte = try input.peek() else { return true }
            input.position += 1
            switch byte {
            case delimiter: continue
            case 0x0A:
                input.newline(at: input.position - 1)
                return true
            case 0x0D:
                if try input.peek() == 0x0A {
                    input.newline(at: input.position)
                    input.position += 1
                    return true
                }
                throw InputError("a carriage return alone ends no record (records end with CRLF or LF)", at: input.location(at: input.position - 1))
            default:
                throw InputError("text after a quoted field's closing quote (a quote inside a quoted field is written twice)", at: input.location(at: input.position - 1))
            }
        }
    }

    /// An unquoted field: up to the delimiter, a line break or the end of the file.
    private mutating func readPlain() throws(InputError) {
        while true {
            var index = input.position
            while index < input.end {
                let byte = input.bytes[index]
                if byte == delimiter || byte == 0x0A || byte == 0x0D { break }
                if byte == UInt8(ascii: "\"") {
                    throw InputError("a quote inside an unquoted field (quote the whole field and write the quote twice)", at: input.location(at: index))
                }
                index += 1
            }
            bytes.append(contentsOf: input.slice(from: input.position, to: index))
            try checkRecordLength()
            input.position = index
            if index < input.end { return }
            guard try input.refill(keeping: input.position) else { return }
        }
    }

    /// A quoted field from its opening quote to its closing one; `""` is one quote.
    private mutating func readQuoted(line: Int, column: Int) throws(InputError) {
        input.position += 1
        while true {
            guard let byte = try input.peek() else {
                throw InputError("a quoted field without its closing quote", at: InputLocation(file: input.path, line: line, column: column))
            }
            input.position += 1
            if byte == UInt8(ascii: "\"") {
                guard try input.peek() == UInt8(ascii: "\"") else { return }
                input.position += 1
            } else if byte == 0x0A {
                input.newline(at: input.position - 1)
            }
            bytes.append(byte)
            if bytes.count & 0xFFFF == 0 { try checkRecordLength() }
        }
    }

    /// A record may not hold more bytes than one value may (`SourceBuffer.maximumToken`).
    private func checkRecordLength() throws(InputError) {
        guard bytes.count <= SourceBuffer.maximumToken else {
            throw InputError("a record longer than \(SourceBuffer.maximumToken >> 20) MiB", at: InputLocation(file: input.path, line: recordStart.line, column: recordStart.column))
        }
    }
}
