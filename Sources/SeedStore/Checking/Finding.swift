/// One problem `seedgen verify` found: what, where, what was expected and what was found.
public struct Finding: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The kind of check, e.g. `hash`, `index`, `reference`, `z-max`.
    public var check: String
    /// Where: an entity, table, column, index or row.
    public var location: String
    /// What the model or the format requires.
    public var expected: String
    /// What the store holds.
    public var found: String

    /// Creates a finding.
    package init(check: String, location: String, expected: String, found: String) {
        self.check = check
        self.location = location
        self.expected = expected
        self.found = found
    }

    /// One line: `hash: entity Image: expected ..., found ...`.
    public var description: String {
        "\(check): \(location): expected \(expected), found \(found)"
    }
}
