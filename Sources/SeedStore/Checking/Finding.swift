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
    public var isNote = false

    /// Creates a finding (or a note).
    package init(check: String, location: String, expected: String, found: String, isNote: Bool = false) {
        self.check = check
        self.location = location
        self.expected = expected
        self.found = found
        self.isNote = isNote
    }

    /// JSON holds the four strings: `verify --json` lists findings and notes apart.
    private enum CodingKeys: String, CodingKey {
        case check, location, expected, found
    }

    /// One line: `hash: entity Image: expected ..., found ...` (`note: …` for a note).
    public var description: String {
        "\(isNote ? "note: " : "")\(check): \(location): expected \(expected), found \(found)"
    }
}
