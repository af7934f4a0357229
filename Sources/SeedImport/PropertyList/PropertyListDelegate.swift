import SeedModel

/// Streams an XML property list: the root `<dict>` is read section by section, and each
/// object of a section is written as soon as it is complete (flat, `SourceItem`, or built
/// as a small tree), so a large plist never sits in memory whole.
final class PropertyListDelegate: XMLRawDelegate {
    /// An open container or scalar element.
    private struct Open {
        var element: String
        var location: InputLocation
        var text = ""
        var items: [SourceNode] = []
        var entries: [(key: String, value: SourceNode)] = []
        var pendingKey: String?
        /// The keys a `<dict>` gave so far, as bytes (NFC and NFD are two keys): one key given
        /// twice is refused, not merged.
        var keys: Set<[UInt8]> = []
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
    /// The scalar kind of each element name met in a flat item (`scalarKind(_:)`).
    @exclusivity(unchecked) private var elementKinds: [(name: UnsafeRawPointer, kind: ScalarKind?)] = []

    init(repository: SeedRepository) {
        self.writer = SectionWriter(repository: repository)
    }

    /// `<string> </string>` is a real value.
    var wantsWhitespaceText: Bool { true }

    private static func isScalar(_ name: String) -> Bool {
        ScalarKind(element: name) != nil
    }

    func startElement(_ name: XMLName, attributes: XMLAttributes, at position: XMLPosition) throws(InputError) {
        if readingFlat, flat.open == nil, let kind = scalarKind(name) {
            flat.startScalar(kind, line: position.line, column: position.column)
        } else {
            try startElement(name.string, attributes: attributes, at: position.location)
        }
    }

    func endElement(_ name: XMLName, at position: XMLPosition) throws(InputError) {
        if readingFlat, flat.open != nil {
            try flat.endScalar()
        } else {
            try endElement(name.string, at: position.location)
        }
    }

    /// The scalar kind an element name gives, by its interned pointer: a plist has a dozen names,
    /// each matched once (at most 32 are kept; others are matched by their String each time).
    private func scalarKind(_ name: XMLName) -> ScalarKind? {
        for known in elementKinds where known.name == name.identity { return known.kind }
        let kind = ScalarKind(element: name.string)
        if elementKinds.count < 32 { elementKinds.append((name.identity, kind)) }
        return kind
    }

    func startElement(_ name: String, attributes: XMLAttributes, at location: InputLocation) throws(InputError) {
        if readingFlat {
            if let open = flat.open { throw InputError("<\(name)> inside <\(open.kind.name)>", at: location) }
            if let kind = ScalarKind(element: name) {
                flat.startScalar(kind, line: location.line, column: location.column)
                return
            }
            // Anything else: the item is read as a tree from here on.
            let frame = flat.frame()
            stack.append(Open(element: "dict", location: flat.location, entries: frame.entries, pendingKey: frame.pendingKey, keys: frame.keys))
            readingFlat = false
        }
        guard name == "plist" || name == "dict" || name == "array" || Self.isScalar(name) else {
            throw InputError("<\(name)> is not a property-list element", at: location)
        }
        guard stack.count < SourceNode.maximumDepth else {
            throw InputError("the property list nests more than \(SourceNode.maximumDepth) levels deep", at: location)
        }
        if name == "plist" {
            guard stack.isEmpty else { throw InputError("<plist> inside a property list", at: location) }
        } else if stack.isEmpty {
            throw InputError("<\(name)> outside <plist>", at: location)
        } else if stack.count == 1 && name != "dict" {
            throw InputError("the property list's root must be a <dict> of sections, not <\(name)>", at: location)
        } else if Self.isScalar(stack.last!.element) {
            throw InputError("<\(name)> inside <\(stack.last!.element)>", at: location)
        }
        if stack.count == 2 && name != "key" {
            // A section value: starts a section.
            guard let key = stack[1].pendingKey else { throw InputError("a section value without its <key>", at: location) }
            guard name == "array" || name == "dict" else {
                throw InputError("section '\(key)' must be an <array> or a <dict> of objects, not <\(name)>", at: location)
            }
            section = (try writer.entity(forSection: key, at: location), name == "dict")
            sectionKey = key
            sectionPlan = nil
            flatSection = name == "array"
        }
        if flatSection, stack.count == 3, name == "dict" {
            flat.start(at: location)
            readingFlat = true
            return
        }
        stack.append(Open(element: name, location: location))
    }

    func characters(bytes: UnsafeBufferPointer<UInt8>, at position: XMLPosition) throws(InputError) {
        if readingFlat, flat.open != nil {
            flat.append(bytes)
        } else if bytes.contains(where: { $0 != 0x20 && $0 != 0x0A && $0 != 0x09 && $0 != 0x0D })
                    || (!readingFlat && !stack.isEmpty && Self.isScalar(stack[stack.count - 1].element)) {
            // Text, or white space that is a scalar's value; white space between elements is skipped.
            try characters(String(decoding: bytes, as: UTF8.self), at: position.location)
        }
    }

    func characters(_ text: String, at location: InputLocation) throws(InputError) {
        if readingFlat {
            if text.contains(where: { !$0.isWhitespace }) { throw InputError("unexpected text inside <dict>", at: location) }
            return
        }
        guard let open = stack.last else { return }
        if Self.isScalar(open.element) {
            stack[stack.count - 1].text += text
        } else if text.contains(where: { !$0.isWhitespace }) {
            throw InputError("unexpected text inside <\(open.element)>", at: location)
        }
    }

    func endElement(_ name: String, at location: InputLocation) throws(InputError) {
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
        case "plist":
            return
        case "key":
            guard stack.last?.element == "dict" else { throw InputError("<key> outside a <dict>", at: open.location) }
            if stack[stack.count - 1].pendingKey != nil { throw InputError("two <key>s in a row", at: open.location) }
            guard stack[stack.count - 1].keys.insert(Array(open.text.utf8)).inserted else {
                throw InputError("the <dict> gives the key '\(open.text)' twice", at: open.location)
            }
            stack[stack.count - 1].pendingKey = open.text
            return
        case "dict":
            if open.pendingKey != nil { throw InputError("<key> '\(open.pendingKey!)' has no value", at: open.location) }
            node = .dictionary(open.entries, open.location)
        case "array":
            node = .array(open.items, open.location)
        default:
            // startElement lets nothing else in.
            guard let kind = ScalarKind(element: open.element) else { throw InputError("<\(open.element)> is not a property-list element", at: open.location) }
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
        if parent.element == "array" {
            parent.items.append(node)
        } else {
            guard let key = parent.pendingKey else { throw InputError("a value without its <key>", at: node.location) }
            parent.entries.append((key, node))
            parent.pendingKey = nil
        }
        stack.append(parent)
    }
}
