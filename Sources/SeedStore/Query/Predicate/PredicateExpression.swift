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
