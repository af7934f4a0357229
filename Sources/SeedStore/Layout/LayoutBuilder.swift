import SeedModel

/// Applies Core Data's layout rules to a model; `StoreLayout` keeps the result.
struct LayoutBuilder {
    let model: DataModel
    private(set) var entityLayouts: [EntityLayout] = []
    private(set) var tables: [TableLayout] = []
    private(set) var joinTables: [JoinTableLayout] = []
    private(set) var indexes: [IndexLayout] = []
    private(set) var schema: [String] = []
    private(set) var columnsByProperty: [StoreLayout.PropertyKey: String] = [:]

    /// Entities in `Z_ENT` order.
    private var ordered: [EntityDescription] = []
    private var numbers: [String: Int] = [:]
    /// The column stem (`ZUSEDIN1`) of every stored relationship, to-one or many-to-many.
    private var relationshipStems: [StoreLayout.PropertyKey: String] = [:]
    /// Per entity: its indexed attribute and to-one columns, in property order.
    private var columnIndexes: [String: [String]] = [:]

    init(model: DataModel) {
        self.model = model
    }

    private func unsupported(_ line: Int, _ message: String) -> LayoutError {
        LayoutError(file: model.source, line: line, message: message)
    }

    mutating func build() throws(LayoutError) {
        numberEntities()
        for root in model.rootEntities {
            tables.append(try table(for: root))
        }
        for entity in ordered {
            for relationship in entity.relationships where try isManyToMany(relationship, of: entity) {
                if let table = try joinTable(for: relationship, of: entity) {
                    joinTables.append(table)
                }
            }
        }
        try collectSchema()
    }

    /// `Z_ENT`: a pre-order walk, roots by name, each followed by its sub-entities by name.
    private mutating func numberEntities() {
        func visit(_ entity: EntityDescription, into list: inout [EntityDescription]) {
            list.append(entity)
            for child in model.subentities(of: entity) { visit(child, into: &list) }
        }
        for root in model.rootEntities { visit(root, into: &ordered) }
        for (offset, entity) in ordered.enumerated() { numbers[entity.name] = offset + 1 }
        for entity in ordered {
            let root = model.root(of: entity)
            let subtree = ordered.filter { model.entity($0, isKindOf: entity) }.map { numbers[$0.name]! }
            entityLayouts.append(EntityLayout(
                name: entity.name, number: numbers[entity.name]!,
                superNumber: entity.parentName.flatMap { numbers[$0] } ?? 0,
                table: Self.tableName(root.name), isAbstract: entity.isAbstract,
                subtreeNumbers: subtree, renamingIdentifier: entity.renamingIdentifier
            ))
        }
    }

    static func tableName(_ rootName: String) -> String { "Z" + rootName.uppercased() }

    /// True for a to-many whose inverse is to-many too; such a pair gets a join table.
    private func isManyToMany(_ relationship: RelationshipDescription, of entity: EntityDescription) throws(LayoutError) -> Bool {
        guard relationship.isToMany, !relationship.isTransient else { return false }
        guard let inverse = model.inverse(of: relationship) else {
            throw unsupported(relationship.line, "to-many relationship '\(entity.name).\(relationship.name)' has no inverse; its Core Data store layout is not known, so seedgen does not write it")
        }
        return inverse.isToMany
    }

    /// The table of one root entity: columns of every entity below it, then a stable sort by storage class.
    private mutating func table(for root: EntityDescription) throws(LayoutError) -> TableLayout {
        let tree = ordered.filter { model.root(of: $0).name == root.name }
        var stems = StemAllocator()
        var columns: [ColumnLayout] = []
        for entity in tree {
            var indexed: [String] = []
            for attribute in entity.attributes where !attribute.isTransient {
                guard let type = ColumnLayout.sqlType(for: attribute.type) else {
                    throw unsupported(attribute.line, "attribute '\(entity.name).\(attribute.name)' of type \(attribute.type.rawValue) has no known store layout")
                }
                let name = stems.allocate(attribute.name)
                columns.append(ColumnLayout(name: name, sqlType: type, role: .attribute(entity: entity.name, attribute: attribute.name, type: attribute.type)))
                columnsByProperty[.init(entity: entity.name, property: attribute.name)] = name
                if attribute.isIndexed { indexed.append(name) }
            }
            for relationship in entity.relationships where !relationship.isTransient {
                if relationship.isToMany {
                    if try isManyToMany(relationship, of: entity) {
                        // Many-to-many relationships take part in the numbering but get no column.
                        relationshipStems[.init(entity: entity.name, property: relationship.name)] = stems.allocate(relationship.name)
                    }
                    continue
                }
                let name = stems.allocate(relationship.name)
                relationshipStems[.init(entity: entity.name, property: relationship.name)] = name
                columnsByProperty[.init(entity: entity.name, property: relationship.name)] = name
                columns.append(ColumnLayout(name: name, sqlType: "INTEGER", role: .foreignKey(entity: entity.name, relationship: relationship.name, destination: relationship.destinationEntity)))
                indexed.append(name)
                if let destination = model.entity(named: relationship.destinationEntity), !model.subentities(of: destination).isEmpty {
                    // Assumed: the destination's concrete entity, as `Z<d>_<NAME>`.
                    let column = "Z\(numbers[destination.name]!)_\(name.dropFirst())"
                    columns.append(ColumnLayout(name: column, sqlType: "INTEGER", role: .foreignEntity(entity: entity.name, relationship: relationship.name)))
                }
                if let inverse = model.inverse(of: relationship), inverse.isToMany, inverse.isOrdered {
                    columns.append(ColumnLayout(name: "Z_FOK_\(name.dropFirst())", sqlType: "INTEGER", role: .foreignOrder(entity: entity.name, relationship: relationship.name)))
                }
            }
            columnIndexes[entity.name] = indexed
        }
        let sorted = columns.enumerated()
            .sorted { ($0.element.storageClass, $0.offset) < ($1.element.storageClass, $1.offset) }
            .map(\.element)
        return TableLayout(name: Self.tableName(root.name), rootEntity: root.name, columns: sorted)
    }

    /// The join table of a many-to-many pair, built from the side that names it (nil from the other side).
    private func joinTable(for relationship: RelationshipDescription, of entity: EntityDescription) throws(LayoutError) -> JoinTableLayout? {
        let inverse = model.inverse(of: relationship)!
        let destination = model.entity(named: relationship.destinationEntity)!
        let owner = model.declaringEntity(of: inverse.name, from: destination)!
        let names: Bool
        if owner.name != entity.name {
            names = DataModel.namePrecedes(entity.name, owner.name)
        } else if inverse.name == relationship.name {
            throw unsupported(relationship.line, "many-to-many relationship '\(entity.name).\(relationship.name)' is its own inverse; its Core Data store layout is not known, so seedgen does not write it")
        } else {
            names = DataModel.namePrecedes(inverse.name, relationship.name)
        }
        guard names else { return nil }
        let e = numbers[entity.name]!
        let d = numbers[relationship.destinationEntity]!
        let stem = relationshipStems[.init(entity: entity.name, property: relationship.name)]!.dropFirst()
        let inverseStem = relationshipStems[.init(entity: owner.name, property: inverse.name)]!.dropFirst()
        let first = "Z_\(e)\(inverseStem)"
        let second = "Z_\(d)\(stem)"
        var order: [String] = []
        if inverse.isOrdered { order.append("Z_FOK_\(first.dropFirst(2))") }
        if relationship.isOrdered { order.append("Z_FOK_\(second.dropFirst(2))") }
        return JoinTableLayout(
            name: "Z_\(e)\(stem)", entity: entity.name, relationship: relationship.name,
            inverseEntity: owner.name, inverseRelationship: inverse.name,
            firstColumn: first, secondColumn: second, orderColumns: order
        )
    }

    /// Creation order: each root table and its join tables, then the indexes entity by entity,
    /// then the bookkeeping tables.
    private mutating func collectSchema() throws(LayoutError) {
        for table in tables {
            schema.append(table.createSQL)
            for entity in ordered where model.root(of: entity).name == table.rootEntity {
                for join in joinTables where join.entity == entity.name {
                    schema.append(join.createSQL)
                }
            }
        }
        for entity in ordered {
            let table = Self.tableName(model.root(of: entity).name)
            for column in columnIndexes[entity.name] ?? [] {
                addIndex("\(table)_\(column)_INDEX", on: table, "CREATE INDEX \(table)_\(column)_INDEX ON \(table) (\(column))")
            }
            for join in joinTables where join.entity == entity.name {
                let name = "\(join.name)_\(join.secondColumn)_INDEX"
                addIndex(name, on: join.name, "CREATE INDEX \(name) ON \(join.name) (\(join.secondColumn), \(join.firstColumn))")
            }
            if entity.parentName == nil && !model.subentities(of: entity).isEmpty {
                addIndex("\(table)_Z_ENT_INDEX", on: table, "CREATE INDEX \(table)_Z_ENT_INDEX ON \(table) (Z_ENT)")
            }
            for fetchIndex in entity.fetchIndexes {
                var parts: [String] = []
                for element in fetchIndex.elements {
                    guard element.kind == "Binary", let property = element.property,
                          let column = StoreLayout.column(for: property, of: entity, in: columnsByProperty, model: model)
                    else {
                        throw unsupported(fetchIndex.line, "fetch index '\(entity.name).\(fetchIndex.name)' uses an expression, an R-tree or a to-many; its store layout is not known")
                    }
                    parts.append("\(column) COLLATE BINARY \(element.isAscending ? "ASC" : "DESC")")
                }
                let name = "Z_\(entity.name)_\(fetchIndex.name)"
                addIndex(name, on: table, "CREATE INDEX \(name) ON \(table) (\(parts.joined(separator: ", ")))")
            }
            for constraint in entity.uniquenessConstraints {
                var parts: [String] = []
                for property in constraint {
                    guard let column = StoreLayout.column(for: property, of: entity, in: columnsByProperty, model: model) else {
                        throw unsupported(entity.line, "uniqueness constraint of '\(entity.name)' names '\(property)', which has no column")
                    }
                    parts.append("\(column) COLLATE BINARY ASC")
                }
                let name = "Z_\(entity.name)_UNIQUE_\(constraint.joined(separator: "_"))"
                addIndex(name, on: table, "CREATE UNIQUE INDEX \(name) ON \(table) (\(parts.joined(separator: ", ")))")
            }
        }
        schema += [StoreLayout.primaryKeyTableSQL, StoreLayout.metadataTableSQL]
    }

    private mutating func addIndex(_ name: String, on table: String, _ sql: String) {
        indexes.append(IndexLayout(name: name, table: table, createSQL: sql))
        schema.append(sql)
    }
}

/// Hands out column stems per table: `ZNAME`, then `ZNAME1`, `ZNAME2` for later entities.
struct StemAllocator {
    private var counts: [String: Int] = [:]
    private var used: Set<String> = []

    mutating func allocate(_ propertyName: String) -> String {
        let base = "Z" + propertyName.uppercased()
        var count = counts[base, default: 0]
        var name = count == 0 ? base : base + String(count)
        while used.contains(name) {
            count += 1
            name = base + String(count)
        }
        counts[base] = count + 1
        used.insert(name)
        return name
    }
}
