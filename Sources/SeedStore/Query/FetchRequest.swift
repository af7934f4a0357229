import SeedModel

/// What to fetch from a store: an entity, a predicate with its variables, sort keys, limit and
/// offset. Compiled to one SELECT on Core Data's layout (`compile(for:)`).
public struct FetchRequest: Sendable {
    /// A sort key: a key path through to-one relationships to an attribute.
    public struct SortKey: Sendable, Hashable {
        /// `name`, `team.name`.
        public var keyPath: String
        /// Ascending (the default) or descending.
        public var ascending: Bool

        /// Creates a sort key.
        public init(_ keyPath: String, ascending: Bool = true) {
            self.keyPath = keyPath
            self.ascending = ascending
        }
    }

    /// What the SELECT returns.
    package enum Selection: Sendable {
        /// `Z_PK`, `Z_ENT` and every column of the entity's table.
        case objects
        /// One row: the number of matching objects.
        case count
    }

    /// The entity's name.
    public var entity: String
    /// The predicate; nil fetches every object.
    public var predicate: FetchPredicate?
    /// Values for the predicate's `$VARIABLES` (text is read by the compared attribute's type).
    public var variables: [String: SQLValue]
    /// Sort keys, most significant first; ties are broken by `Z_PK`.
    public var sortKeys: [SortKey]
    /// At most this many objects.
    public var limit: Int?
    /// Skip this many objects first.
    public var offset: Int?
    /// Whether objects of sub-entities match too (Core Data's default: yes).
    public var includesSubentities: Bool

    /// Creates a request.
    public init(entity: String, predicate: FetchPredicate? = nil, variables: [String: SQLValue] = [:],
                sortKeys: [SortKey] = [], limit: Int? = nil, offset: Int? = nil, includesSubentities: Bool = true) {
        self.entity = entity
        self.predicate = predicate
        self.variables = variables
        self.sortKeys = sortKeys
        self.limit = limit
        self.offset = offset
        self.includesSubentities = includesSubentities
    }

    /// The request a model's fetch request template describes.
    public init(template: FetchRequestTemplate, variables: [String: SQLValue] = [:]) throws(QueryError) {
        var predicate: FetchPredicate?
        if let text = template.predicate {
            do {
                predicate = try FetchPredicate(parsing: text)
            } catch {
                throw QueryError("template '\(template.name)': \(error.message) in '\(PredicateSyntaxError.excerpt(text, around: error.position))'", position: error.position,
                                 isUnsupportedFeature: error.isUnsupportedFeature)
            }
        }
        self.init(entity: template.entity, predicate: predicate, variables: variables, limit: template.fetchLimit,
                  includesSubentities: template.includesSubentities ?? true)
    }

    /// The SELECT and its arguments on `layout`.
    package func compile(for layout: StoreLayout, selecting selection: Selection = .objects) throws(QueryError) -> CompiledFetch {
        let model = layout.model
        guard let description = model.entity(named: entity), let target = layout.entity(named: entity) else {
            throw QueryError("the model has no entity '\(entity)'\(NameSuggestion.hint(for: entity, in: model.entities.map(\.name)))")
        }
        var compiler = PredicateCompiler(layout: layout, variables: variables)
        let kinds = includesSubentities ? target.subtreeList : String(target.number)
        var conditions = ["t0.Z_ENT IN (\(kinds))"]
        if let predicate {
            conditions.append(try compiler.condition(predicate, entity: description, row: "t0"))
        }
        var order: [String] = []
        for key in sortKeys {
            let parts = key.keyPath.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            guard case .scalar(let sql, _) = try compiler.resolve(parts, from: description, row: "t0", position: 1) else {
                throw QueryError("cannot sort by the to-many key path '\(key.keyPath)'")
            }
            order.append(sql + (key.ascending ? "" : " DESC"))
        }
        order.append("t0.Z_PK")
        var sql = "SELECT t0.* FROM \(target.table) t0 WHERE \(conditions.joined(separator: " AND "))"
        if selection == .objects { sql += " ORDER BY \(order.joined(separator: ", "))" }
        if limit != nil || offset != nil { sql += " LIMIT \(limit ?? -1)" }
        if let offset { sql += " OFFSET \(offset)" }
        if selection == .count { sql = "SELECT COUNT(*) FROM (\(sql))" }
        return CompiledFetch(sql: sql, arguments: compiler.arguments)
    }
}
