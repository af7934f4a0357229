import SeedModel

/// Translates a `FetchPredicate` into an SQL condition on Core Data's layout, with bound parameters.
///
/// Attributes become columns; to-one key paths become scalar subqueries on the foreign key;
/// to-many key paths need `ANY`/`ALL`/`NONE` (or `IN`/`CONTAINS` with a value) and become
/// `EXISTS` over the destination table or the join table; `@count` counts. Entity inheritance
/// is respected: destinations are filtered by their sub-entity numbers. String operators and
/// `[c]`/`[d]` go through `seedgen_compare`, registered on every connection.
struct PredicateCompiler {
    let layout: StoreLayout
    let variables: [String: SQLValue]
    var arguments: [SQLValue] = []
    private var aliases = 0

    var model: DataModel { layout.model }

    init(layout: StoreLayout, variables: [String: SQLValue]) {
        self.layout = layout
        self.variables = variables
    }

    /// A fresh table alias (`t1`, `t2`, ...).
    mutating func alias() -> String {
        aliases += 1
        return "t\(aliases)"
    }

    /// The SQL condition for `predicate` on rows of `entity` named `row`.
    mutating func condition(_ predicate: FetchPredicate, entity: EntityDescription, row: String) throws(QueryError) -> String {
        switch predicate {
        case .constant(let value):
            return value ? "1" : "0"
        case .and(let terms):
            var parts: [String] = []
            for term in terms { parts.append(try condition(term, entity: entity, row: row)) }
            return Self.balanced(parts, "AND")
        case .or(let terms):
            var parts: [String] = []
            for term in terms { parts.append(try condition(term, entity: entity, row: row)) }
            return Self.balanced(parts, "OR")
        case .not(let inner):
            return "NOT (\(try condition(inner, entity: entity, row: row)))"
        case .comparison(let comparison):
            return try self.comparison(comparison, entity: entity, row: row)
        }
    }

    /// `(a OP b OP c …)` grouped as a balanced tree: SQLite parses a flat chain into a tree as
    /// deep as it is long and refuses one deeper than 1,000; balanced, 1,000,000 terms nest 20 deep.
    static func balanced(_ parts: [String], _ op: String) -> String {
        guard parts.count > 8 else { return "(" + parts.joined(separator: " \(op) ") + ")" }
        let middle = parts.count / 2
        return "(" + balanced(Array(parts[..<middle]), op) + " \(op) " + balanced(Array(parts[middle...]), op) + ")"
    }

    // MARK: Key paths

    /// Where a key path leads from a row.
    enum Resolved {
        /// One value per row: an SQL expression, and the attribute when it ends at one.
        case scalar(String, AttributeDescription?)
        /// Many values: the elements of a to-many relationship, and the rest of the key path.
        case toMany(ToManyPath)
    }

    /// The elements of a to-many relationship of one row.
    struct ToManyPath {
        /// `FROM ... WHERE ...` selecting the elements as `element`.
        let from: String
        let element: String
        let destination: EntityDescription
        let rest: [String]
        let relationship: String
    }

    /// Resolves `parts` from the row `pk` (an SQL expression for `Z_PK`) of `entity`.
    mutating func resolve(_ parts: [String], from entity: EntityDescription, row: String, position: Int) throws(QueryError) -> Resolved {
        var entity = entity
        // The fetched row itself (its columns are read directly), until a to-one is followed.
        var rowAlias: String? = row
        var pk = "\(row).Z_PK"
        for (offset, part) in parts.enumerated() {
            let isLast = offset == parts.count - 1
            if part == "@count" {
                throw QueryError("@count follows a to-many relationship", position: position)
            }
            if let attribute = model.allAttributes(of: entity).first(where: { $0.name == part }) {
                let stored = try storedAttribute(attribute, path: parts[offset...].joined(separator: "."), of: entity, position: position)
                guard !stored.isTransient, let column = layout.column(for: stored.name, of: entity.name) else {
                    throw QueryError("\(entity.name).\(stored.name) is transient: it has no column to fetch by", position: position)
                }
                return .scalar(expression(column, of: entity, rowAlias: rowAlias, pk: pk), stored)
            }
            guard let relationship = model.allRelationships(of: entity).first(where: { $0.name == part }) else {
                let names = model.allAttributes(of: entity).map(\.name) + model.allRelationships(of: entity).map(\.name)
                throw QueryError("\(entity.name) has no property '\(part)'\(NameSuggestion.hint(for: part, in: names))", position: position)
            }
            guard let destination = model.entity(named: relationship.destinationEntity) else {
                throw QueryError("\(entity.name).\(part) leads to an unknown entity", position: position)
            }
            if !relationship.isToMany {
                guard let column = layout.column(for: part, of: entity.name) else {
                    throw QueryError("\(entity.name).\(part) has no column", position: position)
                }
                let foreignKey = expression(column, of: entity, rowAlias: rowAlias, pk: pk)
                if isLast { return .scalar(foreignKey, nil) }
                entity = destination
                rowAlias = nil
                pk = foreignKey
                continue
            }
            let element = alias()
            let from = try elements(of: relationship, from: entity, pk: pk, element: element, destination: destination, position: position)
            let rest = Array(parts[(offset + 1)...])
            if rest == ["@count"] {
                return .scalar("(SELECT COUNT(*) \(from))", nil)
            }
            return .toMany(ToManyPath(from: from, element: element, destination: destination, rest: rest, relationship: "\(entity.name).\(part)"))
        }
        // An empty path never parses; a path ending in a to-one returned above.
        throw QueryError("empty key path", position: position)
    }

    /// The stored attribute the rest of a key path names from `attribute`: the attribute itself
    /// when the path ends there, or for a Composite (a SwiftData struct or enum) one member by
    /// its path (`nutrition.calories`), as `fetch` shows it. A struct is compared member by
    /// member: the struct itself, or an unknown member, is refused naming its members.
    private func storedAttribute(_ attribute: AttributeDescription, path: String, of entity: EntityDescription,
                                 position: Int) throws(QueryError) -> AttributeDescription {
        guard attribute.elements != nil else {
            guard path == attribute.name else {
                throw QueryError("\(entity.name).\(attribute.name) is an attribute: nothing follows it in a key path", position: position)
            }
            return attribute
        }
        let members = attribute.storedAttributes
        if let member = members.first(where: { $0.name == path }) { return member }
        let names = members.map(\.name).sorted()
        guard path != attribute.name else {
            throw QueryError("\(entity.name).\(attribute.name) is a struct: compare one of its members (\(names.joined(separator: ", ")))", position: position)
        }
        throw QueryError("\(entity.name).\(attribute.name) has no member '\(path.dropFirst(attribute.name.count + 1))' (its members: \(names.joined(separator: ", ")))\(NameSuggestion.hint(for: path, in: names))", position: position)
    }

    /// A column of the row (when it is the fetched row itself) or of the row with `Z_PK = pk`.
    private mutating func expression(_ column: String, of entity: EntityDescription,
                                     rowAlias: String?, pk: String) -> String {
        if let rowAlias { return "\(rowAlias).\(column)" }
        let table = layout.entity(named: entity.name)!.table
        let other = alias()
        return "(SELECT \(other).\(column) FROM \(table) \(other) WHERE \(other).Z_PK = \(pk))"
    }

    /// `FROM ... WHERE ...` for the elements of a to-many relationship of the row `pk`.
    private func elements(of relationship: RelationshipDescription, from entity: EntityDescription, pk: String,
                          element: String, destination: EntityDescription, position: Int) throws(QueryError) -> String {
        let target = layout.entity(named: destination.name)!
        let kinds = "\(element).Z_ENT IN (\(target.subtreeList))"
        if let join = layout.joinTable(for: relationship.name, of: entity.name) {
            let owner = model.declaringEntity(of: relationship.name, from: entity)?.name
            let forward = join.entity == owner && join.relationship == relationship.name
            let (source, destinationColumn) = forward ? (join.firstColumn, join.secondColumn) : (join.secondColumn, join.firstColumn)
            let link = "\(element)_j"
            return "FROM \(join.name) \(link) JOIN \(target.table) \(element) ON \(element).Z_PK = \(link).\(destinationColumn) WHERE \(link).\(source) = \(pk) AND \(kinds)"
        }
        guard let column = layout.memberColumns(for: relationship.name, of: entity.name)?.key else {
            throw QueryError("\(entity.name).\(relationship.name) has no column to fetch through", position: position)
        }
        return "FROM \(target.table) \(element) WHERE \(element).\(column) = \(pk) AND \(kinds)"
    }
}
