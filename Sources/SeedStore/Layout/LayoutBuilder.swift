import SeedModel

/// Applies Core Data's layout rules to a model; `StoreLayout` keeps the result.
struct LayoutBuilder {
    let model: DataModel
    /// The framework whose layout is written.
    let era: FrameworkEra
    private(set) var entityLayouts: [EntityLayout] = []
    private(set) var tables: [TableLayout] = []
    private(set) var joinTables: [JoinTableLayout] = []
    var indexes: [IndexLayout] = []
    var schema: [String] = []
    private(set) var columnsByProperty: [StoreLayout.PropertyKey: String] = [:]

    /// Entities in `Z_ENT` order.
    private(set) var ordered: [EntityDescription] = []
    /// Root entities in `Z_ENT` order.
    private var roots: [EntityDescription] = []
    private(set) var numbers: [String: Int] = [:]
    /// The column stem (`ZUSEDIN1`) of every stored relationship, to-one or many-to-many.
    private var relationshipStems: [StoreLayout.PropertyKey: String] = [:]
    /// Per entity: the columns indexed as `<TABLE>_<COL>_INDEX` (to-ones; indexed attributes in
    /// eras before 836), in property order.
    private(set) var columnIndexes: [String: [String]] = [:]
    /// Per table: its table constraints (uniqueness constraints in eras before 836).
    private var tableConstraints: [String: [String]] = [:]

    init(model: DataModel, era: FrameworkEra) {
        self.model = model
        self.era = era
    }

    /// Entity names in Core Data's order: case-insensitive (`SyncableSettingsMetadata` before
    /// `SyncFeatureEntity`, one store shows it), then byte order.
    static func entityPrecedes(_ lhs: EntityDescription, _ rhs: EntityDescription) -> Bool {
        let (left, right) = (lhs.name.lowercased(), rhs.name.lowercased())
        return left == right ? DataModel.namePrecedes(lhs.name, rhs.name) : DataModel.namePrecedes(left, right)
    }

    func unsupported(_ line: Int, _ message: String) -> LayoutError {
        LayoutError(file: model.source, line: line, message: message)
    }

    mutating func build() throws(LayoutError) {
        numberEntities()
        for root in roots {
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
    ///
    /// Iterative and linear in the number of entities: an inheritance chain of any depth neither
    /// deepens the stack nor walks the model once per entity. A subtree is a run of numbers.
    private mutating func numberEntities() {
        var children: [String: [EntityDescription]] = [:]
        for entity in model.entities {
            if let parent = entity.parentName { children[parent, default: []].append(entity) }
        }
        roots = model.rootEntities.sorted(by: Self.entityPrecedes)
        var pending = Array(roots.reversed())
        while let entity = pending.popLast() {
            ordered.append(entity)
            pending += (children[entity.name] ?? []).sorted(by: Self.entityPrecedes).reversed()
        }
        for (offset, entity) in ordered.enumerated() { numbers[entity.name] = offset + 1 }
        var sizes: [String: Int] = [:]
        for entity in ordered.reversed() {
            sizes[entity.name] = 1 + (children[entity.name] ?? []).reduce(0) { $0 + sizes[$1.name]! }
        }
        var rootNames: [String: String] = [:]
        for entity in ordered {
            let rootName = entity.parentName.flatMap { rootNames[$0] } ?? entity.name
            rootNames[entity.name] = rootName
            let number = numbers[entity.name]!
            entityLayouts.append(EntityLayout(
                name: entity.name, number: number,
                superNumber: entity.parentName.flatMap { numbers[$0] } ?? 0,
                table: Self.tableName(rootName), isAbstract: entity.isAbstract,
                subtreeNumbers: Array(number..<(number + sizes[entity.name]!)), renamingIdentifier: entity.renamingIdentifier
            ))
        }
    }

    static func tableName(_ rootName: String) -> String { "Z" + rootName.uppercased() }

    /// True for a to-many whose inverse is to-many too; such a pair gets a join table.
    private func isManyToMany(_ relationship: RelationshipDescription, of entity: EntityDescription) throws(LayoutError) -> Bool {
        guard relationship.isToMany, !relationship.isTransient, let inverse = model.inverse(of: relationship) else { return false }
        return inverse.isToMany
    }

    /// The to-manys without an inverse whose destination is `entity`, each with its owner: each
    /// is a column of the destination's table holding the owner's `Z_PK` (a real SwiftData
    /// store shows it for an unordered to-many whose destination has no sub-entities; other
    /// cases are not known, so refused).
    private func inverselessToManys(into entity: EntityDescription) throws(LayoutError) -> [(owner: EntityDescription, relationship: RelationshipDescription)] {
        var found: [(owner: EntityDescription, relationship: RelationshipDescription)] = []
        for owner in ordered {
            for relationship in owner.relationships where relationship.isToMany && !relationship.isTransient
                && relationship.destinationEntity == entity.name && model.inverse(of: relationship) == nil {
                guard !relationship.isOrdered, model.subentities(of: entity).isEmpty, entity.parentName == nil else {
                    throw unsupported(relationship.line, "to-many relationship '\(owner.name).\(relationship.name)' has no inverse and is ordered or points into an entity hierarchy; its Core Data store layout is not known, so seedgen does not write it")
                }
                found.append((owner, relationship))
            }
        }
        return found
    }

    /// The table of one root entity: columns of every entity below it, then a stable sort by storage class.
    private mutating func table(for root: EntityDescription) throws(LayoutError) -> TableLayout {
        let tree = ordered.filter { model.root(of: $0).name == root.name }
        var stems = StemAllocator()
        var columns: [ColumnLayout] = []
        for entity in tree {
            var indexed: [String] = []
            var orderColumns: [ColumnLayout] = []
            for attribute in entity.attributes where !attribute.isTransient {
                if let elements = attribute.elements {
                    // A SwiftData Composite: one column per element, named as an attribute of the
                    // element's name would be (a clash takes the next number); no column of its own.
                    for (element, stored) in zip(elements, attribute.storedAttributes) {
                        guard let type = ColumnLayout.sqlType(for: element.type), element.elements == nil else {
                            throw unsupported(attribute.line, "element '\(element.name)' of '\(entity.name).\(attribute.name)' is of type \(element.type.rawValue), which has no known store layout")
                        }
                        let name = stems.allocate(element.name)
                        columns.append(ColumnLayout(name: name, sqlType: type, role: .attribute(entity: entity.name, attribute: stored.name, type: element.type)))
                        columnsByProperty[.init(entity: entity.name, property: stored.name)] = name
                    }
                    continue
                }
                guard let type = ColumnLayout.sqlType(for: attribute.type) else {
                    throw unsupported(attribute.line, "attribute '\(entity.name).\(attribute.name)' of type \(attribute.type.rawValue) has no known store layout")
                }
                let name = stems.allocate(attribute.name)
                columns.append(ColumnLayout(name: name, sqlType: type, role: .attribute(entity: entity.name, attribute: attribute.name, type: attribute.type)))
                columnsByProperty[.init(entity: entity.name, property: attribute.name)] = name
                if attribute.isIndexed && !era.namesAttributeIndexesByEntity { indexed.append(name) }
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
                    orderColumns.append(ColumnLayout(name: "Z_FOK_\(name.dropFirst())", sqlType: "INTEGER", role: .foreignOrder(entity: entity.name, relationship: relationship.name)))
                }
            }
            for (owner, relationship) in try inverselessToManys(into: entity) {
                let name = stems.allocate("\(numbers[owner.name]!)\(relationship.name)")
                columns.append(ColumnLayout(name: name, sqlType: "INTEGER", role: .ownerKey(entity: entity.name, owner: owner.name, relationship: relationship.name)))
                indexed.append(name)
            }
            // The Z_FOK_ columns follow all of the entity's to-ones (seen at 1333; per entity or
            // per table is not seen: one-entity stores only).
            columns += orderColumns
            columnIndexes[entity.name] = indexed
            if era.writesUniquenessAsTableConstraint {
                for constraint in entity.uniquenessConstraints {
                    var names: [String] = []
                    for property in constraint {
                        guard let column = StoreLayout.column(for: property, of: entity, in: columnsByProperty, model: model) else {
                            throw unsupported(entity.line, "uniqueness constraint of '\(entity.name)' names '\(property)', which has no column")
                        }
                        names.append(column)
                    }
                    tableConstraints[root.name, default: []].append(
                        "CONSTRAINT \(names.joined(separator: "_")) UNIQUE (\(names.joined(separator: ", ")))")
                }
            }
        }
        let sorted = columns.enumerated()
            .sorted { ($0.element.storageClass, $0.offset) < ($1.element.storageClass, $1.offset) }
            .map(\.element)
        return TableLayout(name: Self.tableName(root.name), rootEntity: root.name, columns: sorted,
                           constraints: tableConstraints[root.name] ?? [])
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

    mutating func addIndex(_ name: String, on table: String, _ sql: String) {
        indexes.append(IndexLayout(name: name, table: table, createSQL: sql))
        schema.append(sql)
    }
}
