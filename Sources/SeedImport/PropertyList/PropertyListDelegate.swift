import SeedModel

/// Streams an XML property list: the root `<dict>` is read section by section, and each
/// object of a section is written as soon as it is complete (flat, `SourceItem`, or built
/// as a small tree), so a large plist never sits in memory whole.
final class PropertyListDelegate: XMLRawDelegate {
    /// A property-list element, told by its name once per interned name (`element(_:)`).
    private enum Element: Equatable {
        case plist, dict, array
        case scalar(ScalarKind)

        init?(_ name: String) {
            switch name {
            case "plist": self = .plist
            case "dict": self = .dict
            case "array": self = .array
            default:
                guard let kind = ScalarKind(element: name) else { return nil }
                self = .scalar(kind)
            }
        }

        var name: String {
            switch self {
            case .plist: "plist"
            case .dict: "dict"
            case .array: "array"
            case .scalar(let kind): kind.name
            }
        }

        var isScalar: Bool { if case .scalar = self { true } else { false } }
    }

    /// An open container or scalar element.
    private struct Open {
        var element: Element
        var location: InputLocation
        var text = ""
        var items = SourceItems()
        var entries: [(key: String, value: SourceNode)] = []
        var pendingKey: String?
        /// The keys a `<dict>` gave so far, as bytes (NFC and NFD are two keys), once it has
        /// more than `SourceItem.keysScannedInLine` (fewer are compared in line): one key given
        /// twice is refused, not merged.
        var keys: Set<[UInt8]>?

        /// Whether the `<dict>` gave `key` before (compared as bytes); records it if not. A
        /// `<dict>` that `keepsEntries` (an object's) is searched in line while it is small; the
        /// root's and a keyed section's, whose entries are written and forgotten, keep a set.
        mutating func givesBefore(_ key: String, keepsEntries: Bool) -> Bool {
            if keys == nil {
                guard !keepsEntries || entries.count >= SourceItem.keysScannedInLine else {
                    return entries.contains { $0.key.utf8.elementsEqual(key.utf8) }
                }
                keys = Set(entries.map { Array($0.key.utf8) })
            }
            return !keys!.insert(Array(key.utf8)).inserted
        }
    }


    private let writer: SectionWriter
    @exclusivity(unchecked) private var stack: [Open] = []
    /// The item of an array section being read flat, while `reading` it.
    private let flat = SourceItem()
    @exclusivity(unchecked) private var readingFlat = false
    /// The section being read: its entity, and whether it is a keyed `<dict>`.
    @exclusivity(unchecked) private var section: (entity: EntityDescription, keyed: Bool)?
    @exclusivity(unchecked) private var sectionKey: String?
    /// The plan of an array section's entity, once its first item is read flat.
    @exclusivity(unchecked) private var sectionPlan: EntityPlan?
    @exclusivity(unchecked) private var flatSection = false
    /// The element each element name met stands for (`element(_:)`).
    @exclusivity(unchecked) private var elements: [(name: UnsafeRawPointer, element: Element?)] = []

    init(repository: SeedRepository) {
        self.writer = SectionWriter(repository: repository)
    }

    /// `<string> </string>` is a real value.
    var wantsWhitespaceText: Bool { true }

    func startElement(_ name: XMLName, attributes: XMLAttributes, at position: XMLPosition) throws(InputError) {
        let element = element(name)
        if readingFlat, flat.open == nil, case .scalar(let kind) = element {
            flat.startScalar(kind, line: position.line, column: position.column)
        } else {
            try start(element, named: name.string, at: position.location)
        }
    }

    func endElement(_ name: XMLName, at position: XMLPosition) throws(InputError) {
        if readingFlat, flat.open != nil {
            try flat.endScalar()
        } else {
            try end(at: position.location)
        }
    }

    /// The element a name stands for, by its interned pointer: a plist has a dozen names, each
    /// matched once (at most 32 are kept; others are matched by their String each time).
    private func element(_ name: XMLName) -> Element? {
        for known in elements where known.name == name.identity { return known.element }
        let element = Element(name.string)
        if elements.count < 32 { elements.append((name.identity, element)) }
        return element
    }

    func startElement(_ name: String, attributes: XMLAttributes, at location: InputLocation) throws(InputError) {
        try start(Element(name), named: name, at: location)
    }

    func endElement(_ name: String, at location: InputLocation) throws(InputError) {
        try end(at: location)
    }

    /// An element starts; `name` is made only for a message.
    private func start(_ element: Element?, named name: @autoclosure () -> String, at location: InputLocation) throws(InputError) {
        if readingFlat {
            if let open = flat.open { throw InputError("<\(name())> inside <\(open.kind.name)>", at: location) }
            if case .scalar(let kind) = element {
                flat.startScalar(kind, line: location.line, column: location.column)
                return
            }
            // Anything else: the item is read as a tree from here on.
            let frame = flat.frame()
            stack.append(Open(element: .dict, location: flat.location, entries: frame.entries, pendingKey: frame.pendingKey))
            readingFlat = false
        }
        guard let element else {
            throw InputError("<\(name())> is not a property-list element", at: location)
        }
        guard stack.count < SourceNode.maximumDepth else {
            throw InputError("the property list nests more than \(SourceNode.maximumDepth) levels deep", at: location)
        }
        if element == .plist {
            guard stack.isEmpty else { throw InputError("<plist> inside a property list", at: location) }
        } else if stack.isEmpty {
            throw InputError("<\(name())> outside <plist>", at: location)
        } else if stack.count == 1 && element != .dict {
            throw InputError("the property list's root must be a <dict> of sections, not <\(name())>", at: location)
        } else if stack[stack.count - 1].element.isScalar {
            throw InputError("<\(name())> inside <\(stack[stack.count - 1].element.name)>", at: location)
        }
        if stack.count == 2 && element != .scalar(.key) {
            // A section value: starts a section.
            guard let key = stack[1].pendingKey else { throw InputError("a section value without its <key>", at: location) }
            guard element == .array || element == .dict else {
                throw InputError("section '\(key)' must be an <array> or a <dict> of objects, not <\(name())>", at: location)
            }
            section = (try writer.entity(forSection: key, at: location), element == .dict)
            sectionKey = key
            sectionPlan = nil
            flatSection = element == .array
        }
        if flatSection, stack.count == 3, element == .dict {
            flat.start(at: location)
            readingFlat = true
            return
        }
        stack.append(Open(element: element, location: location))
    }

    func characters(bytes: UnsafeBufferPointer<UInt8>, at position: XMLPosition) throws(InputError) {
        if readingFlat, flat.open != nil {
            flat.append(bytes)
        } else if bytes.contains(where: { $0 != 0x20 && $0 != 0x0A && $0 != 0x09 && $0 != 0x0D })
                    || (!readingFlat && !stack.isEmpty && stack[stack.count - 1].element.isScalar) {
            // Text, or white space that is a scalar's value; white space between elements is skipped.
            try characters(String(decoding: bytes, as: UTF8.self), at: position.location)
        }
    }

    func characters(_ text: String, at location: InputLocation) throws(InputError) {
        if readingFlat {
            if text.contains(where: { !$0.isWhitespace }) { throw InputError("unexpected text inside <dict>", at: location) }
            return
        }
        // No copy of the open element may live while its text grows: that copy would make each
        // `+=` copy the whole text (a long <string> with a DOCTYPE comes in one piece per
        // `&amp;`: 3,000,000 pieces of a 16 MB text did not finish in 6 minutes).
        guard let last = stack.indices.last else { return }
        if stack[last].element.isScalar {
            stack[last].text += text
        } else if text.contains(where: { !$0.isWhitespace }) {
            throw InputError("unexpected text inside <\(stack[last].element.name)>", at: location)
        }
    }

    private func end(at location: InputLocation) throws(InputError) {
        if readingFlat {
            if flat.open != nil {
                try flat.endScalar()
            } else {
                readingFlat = false
                try flat.end()
                if sectionPlan == nil { sectionPlan = try writer.repository.plan(for: section!.entity.name, at: flat.location) }
                let plan = sectionPlan!
                if try !flat.write(plan, to: writer.repository) {
                    try writer.writeSectionItem(.dictionary(flat.frame().entries, flat.location), entity: section!.entity, key: nil)
                }
            }
            return
        }
        let open = stack.removeLast()
        let node: SourceNode
        switch open.element {
        case .plist:
            return
        case .scalar(.key):
            guard stack.last?.element == .dict else { throw InputError("<key> outside a <dict>", at: open.location) }
            if stack[stack.count - 1].pendingKey != nil { throw InputError("two <key>s in a row", at: open.location) }
            // The root <dict> (1) and a keyed section (2) stream their entries.
            if stack[stack.count - 1].givesBefore(open.text, keepsEntries: stack.count > 3) {
                throw InputError("the <dict> gives the key '\(open.text)' twice", at: open.location)
            }
            stack[stack.count - 1].pendingKey = open.text
            return
        case .dict:
            if let pendingKey = open.pendingKey { throw InputError("<key> '\(pendingKey)' has no value", at: open.location) }
            node = .dictionary(open.entries, open.location)
        case .array:
            node = .array(open.items, open.location)
        case .scalar(let kind):
            node = .scalar(kind.boolean == nil ? open.text : "", kind: kind, open.location)
        }
        try add(node)
    }

    /// Puts a finished value into its parent, or writes it when it is a section item.
    private func add(_ node: SourceNode) throws(InputError) {
        let depth = stack.count
        if depth == 3, let section {
            // An item of a section: write it now and keep nothing.
            var key: String?
            if section.keyed {
                key = stack[2].pendingKey
                guard key != nil else { throw InputError("a \(section.entity.name) without its <key>", at: node.location) }
                stack[2].pendingKey = nil
            }
            try writer.writeSectionItem(node, entity: section.entity, key: key)
            return
        }
        if depth == 1 { return }  // the root <dict> is done
        if depth == 2 {
            // A whole section was streamed; forget it.
            stack[1].pendingKey = nil
            section = nil
            flatSection = false
            return
        }
        guard var parent = stack.popLast() else { return }
        if parent.element == .array {
            parent.items.append(node)
        } else {
            guard let key = parent.pendingKey else { throw InputError("a value without its <key>", at: node.location) }
            parent.entries.append((key, node))
            parent.pendingKey = nil
        }
        stack.append(parent)
    }
}
