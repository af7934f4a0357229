#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import SeedModel
import SeedStore

/// A section item of a property list read flat: a `<dict>` of keys and scalar values (the
/// common case), kept as bytes until its `</dict>` and then written straight to the repository,
/// each value converted from its bytes, with no tree, no String per key or value and no set of
/// keys. An item that turns out to be more (a nested `<dict>` or `<array>`, a to-many, an
/// `@id`) becomes the tree `PropertyListSectionWriter` writes, with the same checks and messages.
final class FlatSectionItem {
    /// The format items come in, for messages.
    let syntax: SourceSyntax

    init(syntax: SourceSyntax = .propertyList) {
        self.syntax = syntax
    }

    struct Entry {
        var key: Range<Int>
        /// The value's element: `string`, `integer`, `real`, `date`, `data`, `true` or `false`
        /// (or JSON's `null`: the value is not given).
        var kind: String
        var value: Range<Int>
        /// Where the value's element starts (in the item's file).
        var line: Int32
        var column: Int32
    }

    /// Where the item's `<dict>` starts.
    private(set) var location = InputLocation(file: "", line: 0, column: 0)
    /// The keys' and values' bytes.
    private(set) var bytes: [UInt8] = []
    private(set) var entries: [Entry] = []
    /// The last `<key>` read, waiting for its value.
    private(set) var pendingKey: Range<Int>?
    /// The scalar element being read: its name, where its bytes start, where it starts.
    private(set) var open: (kind: String, start: Int, line: Int32, column: Int32)?
    /// What each key means, per entity plan, searched from the entry's own position (items of a
    /// section mostly give the same keys in the same order).
    private var properties: [ObjectIdentifier: [(key: [UInt8], property: EntityPlan.Property)]] = [:]
    private var cachedPlan: ObjectIdentifier?
    private var cached: [(key: [UInt8], property: EntityPlan.Property)] = []
    private var resolved: [EntityPlan.Property] = []

    /// Starts the item whose `<dict>` is at `location`.
    func start(at location: InputLocation) {
        self.location = location
        bytes.removeAll(keepingCapacity: true)
        entries.removeAll(keepingCapacity: true)
        pendingKey = nil
        open = nil
    }

    /// A `<key>` or scalar element starts, at this line and column of the item's file.
    func startScalar(_ kind: String, line: Int, column: Int) {
        open = (kind, bytes.count, Int32(clamping: line), Int32(clamping: column))
    }

    func append(_ text: UnsafeBufferPointer<UInt8>) {
        bytes.append(contentsOf: text)
    }

    /// The open scalar element ends: a key waits for its value, a value completes an entry.
    func endScalar() throws(InputError) {
        guard let (kind, start, line, column) = open else { return }
        open = nil
        let range = start..<bytes.count
        var location: InputLocation { InputLocation(file: self.location.file, line: Int(line), column: Int(column)) }
        if kind == "key" {
            if pendingKey != nil { throw InputError("two <key>s in a row", at: location) }
            if entries.contains(where: { same($0.key, range) }) {
                throw InputError("\(syntax.theObject) gives the key '\(text(range))' twice", at: location)
            }
            pendingKey = range
            return
        }
        guard let key = pendingKey else { throw InputError("a value without its <key>", at: location) }
        entries.append(Entry(key: key, kind: kind, value: range, line: line, column: column))
        pendingKey = nil
    }

    /// The item's `</dict>`: a key without a value is an error.
    func end() throws(InputError) {
        if let pendingKey { throw InputError("<key> '\(text(pendingKey))' has no value", at: location) }
    }

    /// Whether two ranges of `bytes` hold the same bytes.
    private func same(_ a: Range<Int>, _ b: Range<Int>) -> Bool {
        a.count == b.count && bytes.withUnsafeBufferPointer { all in
            a.isEmpty || memcmp(all.baseAddress! + a.lowerBound, all.baseAddress! + b.lowerBound, a.count) == 0
        }
    }

    /// Where an entry's value starts.
    func location(of entry: Entry) -> InputLocation {
        InputLocation(file: location.file, line: Int(entry.line), column: Int(entry.column))
    }

    func text(_ range: Range<Int>) -> String {
        String(decoding: bytes[range], as: UTF8.self)
    }

    /// A scalar's text as the tree has it (`<true/>` is YES).
    func scalarText(_ entry: Entry) -> String {
        entry.kind == "true" ? "YES" : entry.kind == "false" ? "NO" : text(entry.value)
    }

    /// Writes the item as an object of `plan`'s entity straight into the repository when every
    /// key names an attribute or a to-one by key; false when the tree must write it instead.
    func write(_ plan: EntityPlan, to repository: SeedRepository) throws(InputError) -> Bool {
        guard resolve(plan) else { return false }
        try repository.beginObject(plan, at: location)
        for index in entries.indices {
            let entry = entries[index]
            if entry.kind == "null" { continue }  // JSON's null: not given
            switch resolved[index] {
            case .attribute(let slot):
                guard PropertyListSectionWriter.kind(entry.kind, fits: slot.attribute.type) else {
                    throw InputError("\(plan.entity.name).\(text(entry.key)) is \(slot.attribute.type.rawValue), not \(syntax.name(ofKind: entry.kind))", at: location(of: entry))
                }
                try withScalarBytes(entry) { (value) throws(InputError) in
                    if entry.kind == "date", slot.attribute.type == .date, value.first != UInt8(ascii: "@") {
                        // A plist <date> is ISO 8601 UTC, whatever the attribute's own pattern.
                        guard let seconds = DatePattern.iso8601.secondsSinceReferenceDate(value) else {
                            throw InputError("\(plan.entity.name).\(text(entry.key)): '\(text(entry.value))' is not an ISO 8601 <date>", at: location(of: entry))
                        }
                        try repository.check(.real(seconds), slot, of: plan, at: location(of: entry))
                        repository.values[Int(slot.parameter)] = .real(seconds)
                    } else {
                        try repository.setValue(slot, value, of: plan, at: location(of: entry))
                    }
                }
            case .toOne(let slot):
                repository.addReference(slot, key: scalarText(entry))
            case .toMany, .unknown:
                preconditionFailure("resolve(_:) lets only attributes and to-ones through")
            }
        }
        _ = try repository.commitObject(plan, at: location)
        return true
    }

    private func withScalarBytes(_ entry: Entry, _ body: (UnsafeBufferPointer<UInt8>) throws(InputError) -> Void) throws(InputError) {
        if entry.kind == "true" || entry.kind == "false" {
            var text = scalarText(entry)
            try text.withUTF8 { bytes in Result { () throws(InputError) in try body(bytes) } }.get()
        } else {
            try bytes.withUnsafeBufferPointer { all in
                Result { () throws(InputError) in try body(UnsafeBufferPointer(rebasing: all[entry.value])) }
            }.get()
        }
    }

    /// Finds what each key names; false when the tree must write the item (an `@` key, a
    /// to-many, an unknown name, two keys naming one property).
    private func resolve(_ plan: EntityPlan) -> Bool {
        if cachedPlan != ObjectIdentifier(plan) {
            if let cachedPlan { properties[cachedPlan] = cached }
            cachedPlan = ObjectIdentifier(plan)
            cached = properties[ObjectIdentifier(plan)] ?? []
        }
        resolved.removeAll(keepingCapacity: true)
        for (index, entry) in entries.enumerated() {
            let key = bytes[entry.key]
            let property: EntityPlan.Property
            if index < cached.count, cached[index].key.elementsEqual(key) {
                property = cached[index].property
            } else if let known = cached.first(where: { $0.key.elementsEqual(key) }) {
                property = known.property
            } else {
                guard key.first != UInt8(ascii: "@") else { return false }
                property = plan.property(named: text(entry.key))
                cached.append((Array(key), property))
            }
            switch property {
            case .attribute(let slot):
                if resolved.contains(where: { if case .attribute(let other) = $0 { other === slot } else { false } }) { return false }
            case .toOne(let slot):
                if resolved.contains(where: { if case .toOne(let other) = $0 { other === slot } else { false } }) { return false }
            case .toMany, .unknown:
                return false
            }
            resolved.append(property)
        }
        return true
    }
}
