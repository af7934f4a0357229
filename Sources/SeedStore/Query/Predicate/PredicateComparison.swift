/// One comparison: `ANY players.name BEGINSWITH[c] "M"`.
public struct PredicateComparison: Sendable, Hashable {
    /// How a to-many key path on the left is quantified.
    public enum Quantifier: Sendable, Hashable {
        /// No quantifier written.
        case none
        /// `ANY` / `SOME`: at least one element matches.
        case any
        /// `ALL`: every element matches.
        case all
        /// `NONE`: no element matches.
        case noElement
    }

    /// The operator.
    public enum Operator: String, Sendable, Hashable {
        case equal = "=="
        case notEqual = "!="
        case less = "<"
        case lessOrEqual = "<="
        case greater = ">"
        case greaterOrEqual = ">="
        case `in` = "IN"
        case contains = "CONTAINS"
        case beginsWith = "BEGINSWITH"
        case endsWith = "ENDSWITH"
        case like = "LIKE"
        case between = "BETWEEN"
    }

    /// The quantifier.
    public var quantifier: Quantifier
    /// The left side.
    public var left: PredicateExpression
    /// The operator.
    public var op: Operator
    /// The right side.
    public var right: PredicateExpression
    /// `[c]`: case-insensitive.
    public var caseInsensitive: Bool
    /// `[d]`: diacritic-insensitive.
    public var diacriticInsensitive: Bool
    /// 1-based character position of the comparison in the predicate string.
    public var position: Int

    /// Creates a comparison.
    public init(quantifier: Quantifier = .none, left: PredicateExpression, op: Operator, right: PredicateExpression,
                caseInsensitive: Bool = false, diacriticInsensitive: Bool = false, position: Int = 1) {
        self.quantifier = quantifier
        self.left = left
        self.op = op
        self.right = right
        self.caseInsensitive = caseInsensitive
        self.diacriticInsensitive = diacriticInsensitive
        self.position = position
    }
}
