/// A parsed NSPredicate format string, as fetch request templates hold them.
///
/// Made by `FetchPredicate(parsing:)`; `SeedStore` compiles it to SQL on Core Data's layout.
public indirect enum FetchPredicate: Sendable, Hashable {
    /// `TRUEPREDICATE` / `FALSEPREDICATE`.
    case constant(Bool)
    /// All must hold.
    case and([FetchPredicate])
    /// One must hold.
    case or([FetchPredicate])
    /// Must not hold.
    case not(FetchPredicate)
    /// `left op right`, possibly over a to-many (`ANY`, `ALL`, `NONE`).
    case comparison(PredicateComparison)
}

extension FetchPredicate {
    /// The names of the `$VARIABLES` used, sorted.
    public var variableNames: [String] {
        var names = Set<String>()
        func visit(_ expression: PredicateExpression) {
            switch expression {
            case .variable(let name, _): names.insert(name)
            case .aggregate(let items): items.forEach(visit)
            default: break
            }
        }
        func visit(_ predicate: FetchPredicate) {
            switch predicate {
            case .constant: break
            case .and(let terms), .or(let terms): terms.forEach(visit)
            case .not(let inner): visit(inner)
            case .comparison(let comparison):
                visit(comparison.left)
                visit(comparison.right)
            }
        }
        visit(self)
        return names.sorted()
    }
}

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

/// A value in a predicate: a key path, a constant, a variable or a list.
public indirect enum PredicateExpression: Sendable, Hashable {
    /// `team.name`; `players.@count` ends in `@count`. Position is 1-based.
    case keyPath([String], position: Int)
    /// `"Deutschland"`.
    case string(String)
    /// `42`, `0x1F`.
    case integer(Int64)
    /// `2.5`, `9.2e-5`.
    case real(Double)
    /// `TRUE`, `YES`, `FALSE`, `NO`.
    case boolean(Bool)
    /// `nil`, `NULL`.
    case null
    /// `CAST(722000000, "NSDate")`: seconds since 2001-01-01 UTC.
    case date(Double)
    /// `$NAME`, substituted before the fetch. Position is 1-based.
    case variable(String, position: Int)
    /// `{ e1, e2 }`.
    case aggregate([PredicateExpression])
}

/// A predicate string that does not parse, with the 1-based character position of the problem.
public struct PredicateSyntaxError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong.
    public var message: String
    /// 1-based character position in the predicate string.
    public var position: Int
    /// The predicate string.
    public var text: String
    /// True when the text is NSPredicate syntax that seedgen cannot run (`SUBQUERY`, functions,
    /// arithmetic, `MATCHES`, `@sum`, …), rather than text that is not a predicate at all.
    public var isUnsupportedFeature = false

    /// `at character 12 of 'name == ': expected a value`; a long text is shown around the position.
    public var description: String { "at character \(position) of '\(Self.excerpt(text, around: position))': \(message)" }

    /// At most about 100 characters of `text`, around the 1-based `position`.
    package static func excerpt(_ text: String, around position: Int) -> String {
        let characters = Array(text)
        guard characters.count > 100 else { return text }
        let start = max(0, min(position - 50, characters.count - 100))
        let end = min(characters.count, start + 100)
        return (start > 0 ? "…" : "") + String(characters[start..<end]) + (end < characters.count ? "…" : "")
    }
}
