import SeedModel

/// Imports a JSON file by the property-list conventions: the root object's members are
/// sections named after entities (`SectionNames`), each an array of objects or an object of
/// objects keyed by the entity's natural key; inside an object a relationship is a nested
/// object, an array of them (or of keys), or a reference by key, and `@id` / `@<relationship>`
/// name objects by identifier. `null` means the value is not given, as a left-out member does.
/// A root array is one section: the objects of the entity given (`--entity`) or of the one the
/// file's name names, as in CSV. JSON Lines (`lines`) are the same objects, one a line.
///
/// Streamed: each item of a section is written as soon as it is read. An array item of
/// scalars goes flat (`SourceItem`); anything else becomes the tree that
/// `SectionWriter` writes, so checks and messages are those of the plist path.
struct JSONSourceReader {
    private var scanner: JSONScanner
    private let writer: SectionWriter
    private let flat = SourceItem(syntax: .json)
    /// The entity `--entity` names, for a root array or JSON Lines.
    private let givenEntity: String?
    /// True for JSON Lines.
    private let lines: Bool

    init(file: InputFile, entity: String? = nil, lines: Bool = false, repository: SeedRepository,
         progress: ((Int, Int) -> Void)? = nil) {
        scanner = JSONScanner(input: SourceBuffer(file: file, progress: progress))
        var writer = SectionWriter(repository: repository)
        writer.syntax = .json
        self.writer = writer
        self.givenEntity = entity
        self.lines = lines
    }

    /// What a JSON file held.
    enum Shape {
        /// A root object of sections.
        case sections
        /// One entity's objects: a root array, or JSON Lines.
        case oneEntity
    }

    /// Reads and writes the whole document.
    @discardableResult
    mutating func read() throws(InputError) -> Shape {
        // A UTF-8 byte order mark is skipped; JSON in other encodings is refused.
        try scanner.input.skipByteOrderMark()
        let head = scanner.input.bytes
        if scanner.input.end >= 2, head[0] == 0xFE || head[0] == 0xFF || head[0] == 0 || head[1] == 0 {
            throw InputError("JSON sources must be UTF-8", at: scanner.input.location(at: 0))
        }
        if lines {
            try readLines()
            return .oneEntity
        }
        guard try scanner.nextByte() != nil else { throw InputError("the JSON document is empty", at: scanner.input.location(at: 0)) }
        let root = try scanner.value()
        switch root {
        case .object: try readSections()
        case .array: try readArraySection(of: try writer.entity(ofFile: scanner.input.path, given: givenEntity))
        default:
            throw InputError("the root must be an object of sections (entity names to arrays or objects of objects) or an array of one entity's objects, not \(Self.describe(root))", at: scanner.location)
        }
        if let next = try scanner.nextByte() {
            let hint = next == UInt8(ascii: "{") ? " (JSON Lines, one object a line, are read from a .jsonl file or with --format jsonl)" : ""
            throw InputError("more after the root \(root == .object ? "object" : "array")\(hint)", at: scanner.input.location(at: scanner.input.position))
        }
        return root == .object ? .sections : .oneEntity
    }

    /// The members of the root object, each a section.
    private mutating func readSections() throws(InputError) {
        var first = true
        var sections: Set<String> = []
        while try scanner.nextMember(&first) {
            let name = String(decoding: scanner.text, as: UTF8.self)
            let location = scanner.location
            guard sections.insert(name).inserted else { throw InputError("the root object gives the section '\(name)' twice", at: location) }
            let entity = try writer.entity(forSection: name, at: location)
            switch try scanner.value() {
            case .array: try readArraySection(of: entity)
            case .object: try readKeyedSection(name, of: entity)
            case let other:
                throw InputError("section '\(name)' must be an array or an object of objects, not \(Self.describe(other))", at: scanner.location)
            }
        }
    }

    /// JSON Lines: each line one object of the file's entity; blank lines are skipped.
    private mutating func readLines() throws(InputError) {
        let entity = try writer.entity(ofFile: scanner.input.path, given: givenEntity)
        var plan: EntityPlan?
        while try scanner.nextByte() != nil {
            let line = scanner.input.line
            let kind = try scanner.value()
            let location = scanner.location
            guard kind == .object else {
                throw InputError("each line of a JSON Lines file is one \(entity.name) object, not \(Self.describe(kind))", at: location)
            }
            if plan == nil { plan = try writer.repository.plan(for: entity.name, at: location) }
            try readFlatItem(plan!, at: location)
            guard scanner.input.line == line else {
                throw InputError("an object over lines \(line)–\(scanner.input.line): JSON Lines hold one object a line", at: location)
            }
            if try scanner.nextByte() != nil, scanner.input.line == line {
                throw InputError("more after the object on this line: JSON Lines hold one object a line", at: scanner.input.location(at: scanner.input.position))
            }
        }
    }

    /// An array of objects, each written as soon as it ends.
    private mutating func readArraySection(of entity: EntityDescription) throws(InputError) {
        var plan: EntityPlan?
        var first = true
        while try scanner.nextItem(&first) {
            let kind = try scanner.value()
            let location = scanner.location
            if kind == .object {
                if plan == nil { plan = try writer.repository.plan(for: entity.name, at: location) }
                try readFlatItem(plan!, at: location)
            } else {
                try writer.writeSectionItem(try node(kind, at: location, depth: 3), entity: entity, key: nil)
            }
        }
    }

    /// An object of objects keyed by the entity's natural key, written one by one.
    private mutating func readKeyedSection(_ name: String, of entity: EntityDescription) throws(InputError) {
        var first = true
        var keys: Set<[UInt8]> = []  // as bytes, as the store's unique index compares them
        while try scanner.nextMember(&first) {
            let key = String(decoding: scanner.text, as: UTF8.self)
            guard keys.insert(Array(key.utf8)).inserted else { throw InputError("section '\(name)' gives the key '\(key)' twice", at: scanner.location) }
            try writer.writeSectionItem(try node(depth: 3), entity: entity, key: key)
        }
    }

    /// One item of an array section, its `{` read: flat while its members are scalars; at the
    /// first container the item goes on as a tree.
    private mutating func readFlatItem(_ plan: EntityPlan, at location: InputLocation) throws(InputError) {
        flat.start(at: location)
        var first = true
        while try scanner.nextMember(&first) {
            flat.startScalar(.key, line: scanner.line, column: scanner.column)
            scanner.text.withUnsafeBufferPointer { flat.append($0) }
            try flat.endScalar()
            let kind = try scanner.value()
            switch kind {
            case .object, .array:
                // A nested object or array: the rest of the item is read as a tree.
                var (entries, pendingKey, keys) = flat.frame()
                entries.append((pendingKey!, try node(kind, at: scanner.location, depth: 4)))
                while try scanner.nextMember(&first) {
                    let key = String(decoding: scanner.text, as: UTF8.self)
                    guard keys.insert(Array(key.utf8)).inserted else { throw InputError("the object gives the key '\(key)' twice", at: scanner.location) }
                    entries.append((key, try node(depth: 4)))
                }
                try writer.writeSectionItem(.dictionary(entries, location), entity: plan.entity, key: nil)
                return
            default:
                flat.startScalar(ScalarKind(kind), line: scanner.line, column: scanner.column)
                if kind == .string || kind == .integer || kind == .real {
                    scanner.text.withUnsafeBufferPointer { flat.append($0) }
                }
                try flat.endScalar()
            }
        }
        try flat.end()
        if try !flat.write(plan, to: writer.repository) {
            try writer.writeSectionItem(.dictionary(flat.frame().entries, location), entity: plan.entity, key: nil)
        }
    }

    /// The next value as a tree node.
    private mutating func node(depth: Int) throws(InputError) -> SourceNode {
        let kind = try scanner.value()
        return try node(kind, at: scanner.location, depth: depth)
    }

    /// The value whose start `kind` is (a container's bracket read), as a tree node. Nesting is
    /// bounded as in property lists.
    private mutating func node(_ kind: JSONScanner.Value, at location: InputLocation, depth: Int) throws(InputError) -> SourceNode {
        switch kind {
        case .object, .array:
            guard depth < SourceNode.maximumDepth else {
                throw InputError("the document nests more than \(SourceNode.maximumDepth) levels deep", at: location)
            }
            var first = true
            if kind == .array {
                var items = SourceItems()
                while try scanner.nextItem(&first) {
                    let item = try node(depth: depth + 1)
                    if case .scalar(_, .null, let at) = item { throw InputError("null inside an array: leave the item out", at: at) }
                    items.append(item)
                }
                return .array(items, location)
            }
            var entries: [(key: String, value: SourceNode)] = []
            var keys: Set<[UInt8]> = []
            while try scanner.nextMember(&first) {
                let key = String(decoding: scanner.text, as: UTF8.self)
                guard keys.insert(Array(key.utf8)).inserted else { throw InputError("the object gives the key '\(key)' twice", at: scanner.location) }
                entries.append((key, try node(depth: depth + 1)))
            }
            return .dictionary(entries, location)
        case .true, .false, .null: return .scalar("", kind: ScalarKind(kind), location)
        default: return .scalar(String(decoding: scanner.text, as: UTF8.self), kind: ScalarKind(kind), location)
        }
    }

    /// The property-list kind a scalar is read as.
    private static func kind(of value: JSONScanner.Value) -> String {
        switch value {
        case .object: "dict"
        case .array: "array"
        default: ScalarKind(value).name
        }
    }

    private static func describe(_ value: JSONScanner.Value) -> String {
        SourceSyntax.json.name(ofKind: kind(of: value))
    }
}
