#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import SeedModel
import SeedStore

/// One object of any source read flat: names and scalar values (a property list's `<dict>`, a
/// JSON object, a CSV row; the common case), kept as bytes until the object ends and then
/// written straight to the repository, each value converted from its bytes, with no tree, no
/// String per name or value and no set of names. An object that turns out to be more (nested
/// objects or arrays, a to-many, an `@id`) becomes the tree (`SourceNode`) that `SectionWriter`
/// writes, with the same checks and messages.
final class SourceItem {
    /// The format items come in, for messages.
    let syntax: SourceSyntax

    init(syntax: SourceSyntax = .propertyList) {
        self.syntax = syntax
    }

    struct Entry {
        var key: Range<Int>
        /// The value's kind (JSON's `null`: the value is not given).
        var kind: ScalarKind
        var value: Range<Int>
        /// Where the value's element starts (in the item's file).
        var line: Int32
        var column: Int32
    }

    /// Where the object starts.
    @exclusivity(unchecked) private(set) var location = InputLocation(file: "", line: 0, column: 0)
    /// The keys' and values' bytes.
    @exclusivity(unchecked) private(set) var bytes: [UInt8] = []
    @exclusivity(unchecked) private(set) var entries: [Entry] = []
    /// The last name (a property list's `<key>`) read, waiting for its value.
    @exclusivity(unchecked) private(set) var pendingKey: Range<Int>?
    /// The scalar element being read: its name, where its bytes start, where it starts.
    @exclusivity(unchecked) private(set) var open: (kind: ScalarKind, start: Int, line: Int32, column: Int32)?
    /// What each key means, per entity plan, searched from the entry's own position (items of a
    /// section mostly give the same keys in the same order).
    @exclusivity(unchecked) private var properties: [ObjectIdentifier: [(key: [UInt8], property: EntityPlan.Property)]] = [:]
    @exclusivity(unchecked) private var cachedPlan: ObjectIdentifier?
    @exclusivity(unchecked) private var cached: [(key: [UInt8], property: EntityPlan.Property)] = []
    @exclusivity(unchecked) private var resolved: [EntityPlan.Property] = []
    /// The plan and keys `resolved` was made for (the keys' bytes one after another, and where
    /// each ends): the next item of a section mostly gives the same keys in the same order,
    /// and then only the bytes are compared.
    @exclusivity(unchecked) private var resolvedPlan: ObjectIdentifier?
    @exclusivity(unchecked) private var resolvedKeys: [UInt8] = []
    @exclusivity(unchecked) private var resolvedKeyEnds: [Int] = []

    /// The keys given so far, once the item has more than `keysScannedInLine` (a crafted item
    /// of many keys would otherwise cost a scan of all earlier keys per key).
    @exclusivity(unchecked) private var keySet: Set<[UInt8]>?
    /// Up to how many keys an object's new key is compared with one by one (here and in the
    /// property-list tree reader); past them, a set.
    static let keysScannedInLine = 32

    /// Starts the object that starts at `location`.
    func start(at location: InputLocation) {
        self.location = location
        bytes.removeAll(keepingCapacity: true)
        entries.removeAll(keepingCapacity: true)
        keySet = nil
        pendingKey = nil
        open = nil
    }

    /// A name (`.key`) or a scalar value starts, at this line and column of the object's file.
    func startScalar(_ kind: ScalarKind, line: Int, column: Int) {
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
        if kind == .key {
            if pendingKey != nil { throw InputError("two <key>s in a row", at: location) }
            if givenBefore(range) {
                throw InputError("\(syntax.theObject) gives the key '\(text(range).prefix(80))' twice", at: location)
            }
            pendingKey = range
            return
        }
        guard let key = pendingKey else { throw InputError("a value without its <key>", at: location) }
        entries.append(Entry(key: key, kind: kind, value: range, line: line, column: column))
        pendingKey = nil
    }

    /// The object ends: a name without a value is an error.
    func end() throws(InputError) {
        if let pendingKey { throw InputError("<key> '\(text(pendingKey))' has no value", at: location) }
    }

    /// Whether an entry's key has the bytes of `key` (compared as bytes: NFC and NFD are two keys).
    private func givenBefore(_ key: Range<Int>) -> Bool {
        if entries.count < Self.keysScannedInLine { return entries.contains { same($0.key, key) } }
        if keySet == nil { keySet = Set(entries.map { Array(bytes[$0.key]) }) }
        return !keySet!.insert(Array(bytes[key])).inserted
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


    /// Writes the item as an object of `plan`'s entity straight into the repository when every
    /// key names an attribute or a to-one by key; false when the tree must write it instead.
    func write(_ plan: EntityPlan, to repository: SeedRepository) throws(InputError) -> Bool {
        guard resolve(plan) else { return false }
        try repository.beginObject(plan, at: location)
        // Local constants: the bytes, entries and properties stay alive, read without a retain each.
        let bytes = self.bytes, entries = self.entries, resolved = self.resolved
        try bytes.withUnsafeBufferPointer { all in
            Result { () throws(InputError) in
                for index in entries.indices {
                    let entry = entries[index]
                    if entry.kind == .null { continue }  // JSON's null: not given
                    switch resolved[index] {
                    case .attribute(let slot):
                        try set(slot, entry, in: all, of: plan, repository)
                    case .toOne(let slot):
                        guard entry.kind.canBeKey else {
                            throw InputError("\(plan.entity.name).\(text(entry.key)) names \(slot.relationship.destinationEntity) by its key, not \(syntax.name(ofKind: entry.kind.name)) (a Boolean is never a key)", at: location(of: entry))
                        }
                        repository.addReference(slot, key: text(entry.value), line: Int(entry.line), column: Int(entry.column))
                    case .toMany, .enumCase, .unknown:
                        preconditionFailure("resolve(_:) lets only attributes and to-ones through")
                    }
                }
            }
        }.get()
        _ = try repository.commitObject(plan, at: location)
        return true
    }

    /// Gives the object being built the value of `entry`, whose bytes are in `all`.
    private func set(_ slot: EntityPlan.AttributeSlot, _ entry: Entry, in all: UnsafeBufferPointer<UInt8>, of plan: EntityPlan,
                     _ repository: SeedRepository) throws(InputError) {
        guard entry.kind.fits(slot.attribute.type) else {
            throw InputError("\(plan.entity.name).\(text(entry.key)) is \(slot.attribute.type.rawValue), not \(syntax.name(ofKind: entry.kind.name))", at: location(of: entry))
        }
        if let boolean = entry.kind.boolean {
            try plan.check(.integer(boolean ? 1 : 0), slot, at: location(of: entry))
            plan.values[Int(slot.parameter)] = .integer(boolean ? 1 : 0)
            return
        }
        let value = UnsafeBufferPointer(rebasing: all[entry.value])
        if entry.kind == .date, slot.attribute.type == .date, value.first != UInt8(ascii: "@") {
            // A plist <date> is ISO 8601 UTC, whatever the attribute's own pattern.
            guard let seconds = DatePattern.iso8601.secondsSinceReferenceDate(value) else {
                throw InputError("\(plan.entity.name).\(text(entry.key)): '\(text(entry.value))' is not an ISO 8601 <date>", at: location(of: entry))
            }
            try plan.check(.real(seconds), slot, at: location(of: entry))
            plan.values[Int(slot.parameter)] = .real(seconds)
        } else {
            try plan.setValue(slot, value, at: location(of: entry))
        }
    }

    /// Finds what each key names; false when the tree must write the item (an `@` key, a
    /// to-many, an unknown name, two keys naming one property).
    private func resolve(_ plan: EntityPlan) -> Bool {
        if resolvedPlan == ObjectIdentifier(plan), givesResolvedKeys() { return true }
        resolvedPlan = nil
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
            case .toMany, .enumCase, .unknown:
                return false
            }
            resolved.append(property)
        }
        resolvedPlan = ObjectIdentifier(plan)
        resolvedKeys.removeAll(keepingCapacity: true)
        resolvedKeyEnds.removeAll(keepingCapacity: true)
        for entry in entries {
            resolvedKeys.append(contentsOf: bytes[entry.key])
            resolvedKeyEnds.append(resolvedKeys.count)
        }
        return true
    }

    /// Whether the item gives the keys `resolved` was made for, in the same order.
    private func givesResolvedKeys() -> Bool {
        guard entries.count == resolvedKeyEnds.count else { return false }
        return bytes.withUnsafeBufferPointer { bytes in
            resolvedKeys.withUnsafeBufferPointer { keys in
                var start = 0
                for (entry, end) in zip(entries, resolvedKeyEnds) {
                    guard entry.key.count == end - start else { return false }
                    if start < end, memcmp(bytes.baseAddress! + entry.key.lowerBound, keys.baseAddress! + start, end - start) != 0 { return false }
                    start = end
                }
                return true
            }
        }
    }
}
