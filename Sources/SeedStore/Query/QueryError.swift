/// A predicate or fetch that cannot run on the layout: an unknown key, a to-many key without
/// `ANY`/`ALL`/`NONE`, a missing `$VARIABLE`, a syntax error.
public struct QueryError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong, naming the entity and key.
    public var message: String
    /// 1-based character position in the predicate string, when the problem has one.
    public var position: Int?
    /// True when the predicate is valid NSPredicate syntax that seedgen cannot run (see
    /// `PredicateSyntaxError.isUnsupportedFeature`).
    public var isUnsupportedFeature: Bool

    /// Creates an error.
    package init(_ message: String, position: Int? = nil, isUnsupportedFeature: Bool = false) {
        self.message = message
        self.position = position
        self.isUnsupportedFeature = isUnsupportedFeature
    }

    /// `at character 3: Team has no property 'nmae'`.
    public var description: String {
        position.map { "at character \($0): \(message)" } ?? message
    }
}
