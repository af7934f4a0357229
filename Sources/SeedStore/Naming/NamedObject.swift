import SeedModel

/// An object as `ObjectNames` names it: its entity and the values that name it (for a diff
/// and a seed update's report).
package struct NamedObject: Sendable, Hashable {
    /// One value that names the object.
    package struct Value: Sendable, Hashable {
        /// The attribute.
        package var attribute: AttributeDescription
        /// Its stored value.
        package var value: SQLValue

        package init(attribute: AttributeDescription, value: SQLValue) {
            self.attribute = attribute
            self.value = value
        }
    }

    /// The concrete entity.
    package var entity: String
    /// True when `values` are the natural key's; false when the object has no key (or does
    /// not give all of its values) and is named by every attribute it holds.
    package var isKeyed: Bool
    /// The values that name it, in the key's order (else every attribute by name).
    package var values: [Value]
    /// 1, or n for the n-th object (in `Z_PK` order) with the same values.
    package var ordinal: Int
    /// For an object without a key named by a digest of its values (a seed record's name):
    /// the digest in hexadecimal; `values` is then empty.
    package var contentDigest: String? = nil
    /// For an object its build named by a source identifier (`seedgen:id`, `@id`) that the
    /// seed record keeps: the identifier; `values` is then empty.
    package var identifier: String? = nil
    /// For an object named by its values within its owner: the owner as a report names it
    /// (`Recipe[name="Soup"]`).
    package var owner: String? = nil

    package init(entity: String, isKeyed: Bool, values: [Value], ordinal: Int, contentDigest: String? = nil, identifier: String? = nil, owner: String? = nil) {
        self.entity = entity
        self.isKeyed = isKeyed
        self.values = values
        self.ordinal = ordinal
        self.contentDigest = contentDigest
        self.identifier = identifier
        self.owner = owner
    }
}

extension NamedObject {
    /// The values that name the object as one line: `name="Polen"`, `number=3`; for an object
    /// without a key its first three values given, then `…`; ` #2` for the second of a name.
    package var keyText: String {
        if let identifier { return "seedgen:id=\(Self.text(.text(identifier), .string))" }
        let within = owner.map { " in \($0)" } ?? ""
        if let contentDigest { return "values digesting to \(contentDigest.prefix(12).lowercased())…" + within + (ordinal > 1 ? " #\(ordinal)" : "") }
        let given = isKeyed ? values : values.filter { $0.value != .null }
        var parts = given.prefix(isKeyed ? given.count : 3).map { "\($0.attribute.name)=\(Self.text($0.value, $0.attribute.type))" }
        if given.count > parts.count { parts.append("…") }
        return parts.joined(separator: ", ") + within + (ordinal > 1 ? " #\(ordinal)" : "")
    }

    /// A value in a line: text quoted and escaped, dates in ISO 8601, data by its size.
    package static func text(_ value: SQLValue, _ type: AttributeType) -> String {
        switch value {
        case .null: "nil"
        case .integer(let number): type == .boolean ? (number != 0 ? "true" : "false")
            : type == .date ? DateText.iso8601(secondsSinceReferenceDate: Double(number)) : String(number)
        case .real(let number): type == .date ? DateText.iso8601(secondsSinceReferenceDate: number) : String(number)
        case .text(let text): "\"" + OneLineText.escaped(text).replacingOccurrences(of: "\"", with: "\\\"") + "\""
        case .blob(let bytes): type == .uuid && bytes.count == 16 ? StoredUUID.string(bytes) : "\(bytes.count) bytes"
        }
    }
}
