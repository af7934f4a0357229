/// One problem `seedgen verify` found: what, where, what was expected and what was found. A
/// note (`isNote`) tells of something a healthy store may hold (what a forward migration by
/// Core Data leaves, a template seedgen cannot run) and does not make the store unclean.
public struct Finding: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The kind of check, e.g. `hash`, `index`, `reference`, `z-max`.
    public var check: String
    /// Where: an entity, table, column, index or row.
    public var location: String
    /// What the model or the format requires.
    public var expected: String
    /// What the store holds.
    public var found: String
    /// True for a note, which does not make the store unclean.
    public var isNote: Bool

    /// Creates a finding (or a note).
    package init(check: String, location: String, expected: String, found: String, isNote: Bool = false) {
        self.check = check
        self.location = location
        self.expected = expected
        self.found = found
        self.isNote = isNote
    }

    private enum CodingKeys: String, CodingKey {
        case check, location, expected, found, isNote
    }

    /// Decodes a finding; `isNote` may be absent (false).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        check = try container.decode(String.self, forKey: .check)
        location = try container.decode(String.self, forKey: .location)
        expected = try container.decode(String.self, forKey: .expected)
        found = try container.decode(String.self, forKey: .found)
        isNote = try container.decodeIfPresent(Bool.self, forKey: .isNote) ?? false
    }

    /// Encodes a finding; `isNote` only for a note, so a finding stays four strings.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(check, forKey: .check)
        try container.encode(location, forKey: .location)
        try container.encode(expected, forKey: .expected)
        try container.encode(found, forKey: .found)
        if isNote { try container.encode(true, forKey: .isNote) }
    }

    /// One line: `hash: entity Image: expected ..., found ...` (`note: …` for a note).
    public var description: String {
        "\(isNote ? "note: " : "")\(check): \(location): expected \(expected), found \(found)"
    }
}
