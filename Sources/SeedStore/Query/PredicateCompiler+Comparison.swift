import SeedModel

extension PredicateCompiler {
    /// The SQL for one comparison on rows of `entity` named `row`.
    /// Inside the elements of a to-many (`nested`), `ANY` carries on to a second to-many, if any.
    mutating func comparison(_ comparison: PredicateComparison, entity: EntityDescription, row: String,
                             nested: Bool = false) throws(QueryError) -> String {
        guard case .keyPath(let parts, let position) = comparison.left else {
            return try self.comparison(try flipped(comparison), entity: entity, row: row, nested: nested)
        }
        switch try resolve(parts, from: entity, row: row, position: position) {
        case .scalar(let sql, let attribute):
            guard comparison.quantifier == .none || nested else {
                throw QueryError("ANY, ALL and NONE need a to-many relationship in the key path '\(parts.joined(separator: "."))'", position: comparison.position)
            }
            return try scalarComparison(sql, attribute, comparison, entity: entity, row: row)
        case .toMany(let path):
            return try toManyComparison(path, comparison)
        }
    }

    /// `value op keyPath` as `keyPath op' value`; `x IN collection` as `collection CONTAINS x`.
    private func flipped(_ comparison: PredicateComparison) throws(QueryError) -> PredicateComparison {
        guard case .keyPath = comparison.right else {
            throw QueryError("a comparison needs a key path on one side", position: comparison.position)
        }
        let mirrored: PredicateComparison.Operator
        switch comparison.op {
        case .equal, .notEqual: mirrored = comparison.op
        case .less: mirrored = .greater
        case .lessOrEqual: mirrored = .greaterOrEqual
        case .greater: mirrored = .less
        case .greaterOrEqual: mirrored = .lessOrEqual
        case .in: mirrored = .contains
        default:
            throw QueryError("\(comparison.op.rawValue) needs the key path on its left", position: comparison.position)
        }
        var result = comparison
        result.left = comparison.right
        result.right = comparison.left
        result.op = mirrored
        return result
    }

    /// `ANY`/`ALL`/`NONE` over the elements of a to-many relationship.
    private mutating func toManyComparison(_ path: ToManyPath, _ comparison: PredicateComparison) throws(QueryError) -> String {
        var quantifier = comparison.quantifier
        var inner = comparison
        inner.quantifier = .none
        if quantifier == .none {
            // `players.name CONTAINS "Neuer"`: membership, the same as ANY ... ==.
            guard comparison.op == .contains else {
                throw QueryError("\(path.relationship) is a to-many relationship: use ANY, ALL or NONE (or CONTAINS for membership)", position: comparison.position)
            }
            quantifier = .any
            inner.op = .equal
        }
        guard !path.rest.isEmpty else {
            throw QueryError("compare an attribute of \(path.relationship)'s objects (e.g. \(path.relationship.split(separator: ".").last!).name), not the objects themselves", position: comparison.position)
        }
        // A second to-many inside the first: ANY and NONE nest (as ANY inside); ALL does not.
        inner.quantifier = quantifier == .all ? .none : .any
        inner.left = .keyPath(path.rest, position: comparison.position)
        let condition = try self.comparison(inner, entity: path.destination, row: path.element, nested: true)
        switch quantifier {
        case .any, .none: return "EXISTS (SELECT 1 \(path.from) AND \(condition))"
        case .noElement: return "NOT EXISTS (SELECT 1 \(path.from) AND \(condition))"
        case .all: return "NOT EXISTS (SELECT 1 \(path.from) AND (\(condition)) IS NOT 1)"
        }
    }

    /// A comparison whose left side is one value per row.
    private mutating func scalarComparison(_ left: String, _ attribute: AttributeDescription?, _ comparison: PredicateComparison,
                                           entity: EntityDescription, row: String) throws(QueryError) -> String {
        let flags = (comparison.caseInsensitive ? "c" : "") + (comparison.diacriticInsensitive ? "d" : "")
        func folded(_ sql: String) -> String { flags.isEmpty ? sql : "seedgen_fold(\(sql), '\(flags)')" }
        let position = comparison.position
        switch comparison.op {
        case .equal, .notEqual:
            if comparison.right == .null {
                return "\(left) IS \(comparison.op == .equal ? "" : "NOT ")NULL"
            }
            let right = try operand(comparison.right, attribute, entity: entity, row: row, position: position)
            if comparison.op == .equal { return "\(folded(left)) = \(folded(right))" }
            return "\(folded(left)) IS NOT \(folded(right))"
        case .less, .lessOrEqual, .greater, .greaterOrEqual:
            let right = try operand(comparison.right, attribute, entity: entity, row: row, position: position)
            return "\(folded(left)) \(comparison.op.rawValue) \(folded(right))"
        case .between:
            guard case .aggregate(let bounds) = comparison.right, bounds.count == 2 else {
                throw QueryError("BETWEEN needs two bounds: {low, high}", position: position)
            }
            let low = try operand(bounds[0], attribute, entity: entity, row: row, position: position)
            let high = try operand(bounds[1], attribute, entity: entity, row: row, position: position)
            return "\(folded(left)) BETWEEN \(folded(low)) AND \(folded(high))"
        case .in:
            if case .aggregate(let items) = comparison.right {
                var values: [String] = []
                for item in items { values.append(folded(try operand(item, attribute, entity: entity, row: row, position: position))) }
                return values.isEmpty ? "0" : "\(folded(left)) IN (\(values.joined(separator: ", ")))"
            }
            // Two strings: `name IN "Deutschland"` is a substring test, the other way round.
            let right = try operand(comparison.right, attribute, entity: entity, row: row, position: position)
            return "seedgen_compare('CONTAINS', '\(flags)', \(right), \(left))"
        case .contains, .beginsWith, .endsWith, .like:
            let right = try operand(comparison.right, attribute, entity: entity, row: row, position: position)
            return "seedgen_compare('\(comparison.op.rawValue)', '\(flags)', \(left), \(right))"
        }
    }

    /// The SQL for a value: a bound parameter, `NULL`, or another key path's expression.
    private mutating func operand(_ expression: PredicateExpression, _ attribute: AttributeDescription?,
                                  entity: EntityDescription, row: String, position: Int) throws(QueryError) -> String {
        let value: SQLValue
        switch expression {
        case .keyPath(let parts, let at):
            guard case .scalar(let sql, _) = try resolve(parts, from: entity, row: row, position: at) else {
                throw QueryError("'\(parts.joined(separator: "."))' is a to-many key path: it cannot be a value", position: at)
            }
            return sql
        case .variable(let name, let at):
            guard let bound = variables[name] else {
                throw QueryError("no value for $\(name) (give it with --var \(name)=VALUE)", position: at)
            }
            value = try Self.coerce(bound, to: attribute, position: at)
        case .string(let text): value = try Self.coerce(.text(text), to: attribute, position: position)
        case .integer(let number): value = .integer(number)
        case .real(let number): value = .real(number)
        case .boolean(let flag): value = .integer(flag ? 1 : 0)
        case .date(let seconds): value = .real(seconds)
        case .null: return "NULL"
        case .aggregate:
            throw QueryError("a list { ... } only goes with IN or BETWEEN", position: position)
        }
        arguments.append(value)
        return "?"
    }

    /// A variable or string given as text, read by the attribute's type (`--var LIMIT=3`). Text
    /// that is not a value of that type is an error: SQLite would compare it as text, which sorts
    /// after every number, and silently match the wrong objects (`born < "1966-01-01"`).
    static func coerce(_ value: SQLValue, to attribute: AttributeDescription?, position: Int) throws(QueryError) -> SQLValue {
        guard case .text(let text) = value, let attribute else { return value }
        func refused(_ expected: String) -> QueryError {
            QueryError("\(attribute.name) is \(attribute.type.rawValue): '\(text.prefix(40))' is not \(expected)", position: position)
        }
        switch attribute.type {
        case .integer16, .integer32, .integer64:
            guard let number = Int64(text) else { throw refused("an integer") }
            return .integer(number)
        case .double, .float, .decimal:
            guard let number = Double(text) else { throw refused("a number") }
            return .real(number)
        case .date:
            guard let seconds = Double(text) else {
                throw refused("a date: give seconds since 2001-01-01 (a number, or CAST(seconds, \"NSDate\"))")
            }
            return .real(seconds)
        case .boolean:
            switch text.lowercased() {
            case "yes", "true", "1": return .integer(1)
            case "no", "false", "0": return .integer(0)
            default: throw refused("a Boolean (YES/NO, true/false, 1/0)")
            }
        case .uuid:
            // A UUID is stored as its 16 bytes: `id == "E621E1F8-…"` compares those; other text
            // equals no UUID, which is the right answer for ==, != and IN.
            return StoredUUID.value(text) ?? value
        default:
            return value
        }
    }
}
