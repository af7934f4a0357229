import SeedModel

/// Turns the `@Model` classes the sources declare into a `DataModel`, as SwiftData builds its
/// Core Data model from them: one entity per class, stored properties as attributes or
/// relationships, inverses paired, `#Unique` and `#Index` as constraints and fetch indexes.
struct SchemaAssembler {
    /// Every `@Model` class of the sources.
    let classes: [ModelClassDeclaration]
    /// How value-typed properties become attributes.
    let mapping: PropertyTypeMapping
    /// The `--model` path, the model's source in messages.
    let path: String

    /// The model of the classes `schema` names (and those they reach through relationships),
    /// or of every class when it is nil.
    func model(schema: [String]?) throws(ModelError) -> DataModel {
        var roots: [ModelClassDeclaration]
        if let schema {
            roots = []
            for name in schema {
                roots.append(try named(name, from: [], place: nil))
            }
        } else {
            guard !classes.isEmpty else {
                throw ModelError(file: path, line: nil, message: "no @Model class in these Swift sources")
            }
            roots = classes
        }
        return try model(of: roots, versionIdentifier: SwiftDataModelLoader.defaultVersionIdentifier)
    }

    /// The model one `VersionedSchema` declares: its `models`, named from inside it, with its
    /// version identifier (*assumed* to be what SwiftData stores for it).
    func model(of version: VersionedSchemaDeclaration) throws(ModelError) -> DataModel {
        var roots: [ModelClassDeclaration] = []
        for name in version.models {
            roots.append(try named(name, from: version.scope + [version.name], place: version.modelsPlace))
        }
        return try model(of: roots, versionIdentifier: version.versionIdentifier)
    }

    private func model(of roots: [ModelClassDeclaration], versionIdentifier: String) throws(ModelError) -> DataModel {
        let selected = try select(from: roots)
        var entities: [EntityDescription] = []
        var pending: [PendingRelationship] = []
        for declaration in selected {
            let (entity, relationships) = try entity(for: declaration, among: selected)
            entities.append(entity)
            pending += relationships
        }
        pending = try InversePairing.paired(pending)
        for index in entities.indices {
            entities[index].relationships = pending.filter { $0.entity == entities[index].name }.map(\.description)
                .sorted { DataModel.namePrecedes($0.name, $1.name) }
        }
        return try DataModel(entities: entities, versionIdentifier: versionIdentifier, source: path)
    }

    /// `roots` with every class they reach by relationships or inheritance. Two selected classes
    /// may not share a name (it is the entity's).
    private func select(from roots: [ModelClassDeclaration]) throws(ModelError) -> [ModelClassDeclaration] {
        var selected: [ModelClassDeclaration] = []
        var pending = roots
        var seen: Set<SourcePlace> = []
        while let next = pending.first {
            pending.removeFirst()
            guard seen.insert(next.place).inserted else { continue }
            if let twin = selected.first(where: { $0.name == next.name }) {
                throw next.place.error("a second @Model class named '\(next.name)' (the first at \(twin.place)); an entity's name is its class's: choose one with --schema")
            }
            selected.append(next)
            for property in next.properties {
                if let target = try relatedClass(property, from: next) { pending.append(target) }
            }
            if let inherited = next.inheritedType, let parent = try lookUp(inherited, from: next.scope, place: next.place) {
                pending.append(parent)
            }
        }
        return selected
    }

    /// The `@Model` class a type name means, seen from inside `scope` (`resolve`); none is an
    /// error at `place` (or naming `--schema`).
    private func named(_ name: String, from scope: [String], place: SourcePlace?) throws(ModelError) -> ModelClassDeclaration {
        guard let found = try lookUp(name, from: scope, place: place) else {
            let message = "no @Model class named '\(name)' in the Swift sources"
            throw place?.error(message) ?? ModelError(file: path, line: nil, message: message + " (--schema)")
        }
        return found
    }

    private func lookUp(_ name: String, from scope: [String], place: SourcePlace?) throws(ModelError) -> ModelClassDeclaration? {
        try classes.resolve(name, from: scope, kind: "@Model classes", place: place, file: path + " (--schema)")
    }

    /// The class a property's type names (`T`, `T?`, `[T]`, `[T]?`), if it is a `@Model` class.
    private func relatedClass(_ property: PropertyDeclaration, from origin: ModelClassDeclaration) throws(ModelError) -> ModelClassDeclaration? {
        var type = property.type.unwrapped.type
        if case .array(let element) = type { type = element }
        guard case .named(let name) = type else { return nil }
        return try lookUp(name, from: origin.scope, place: property.typePlace)
    }

    /// One entity and its relationships (still to be paired with their inverses).
    private func entity(for declaration: ModelClassDeclaration, among selected: [ModelClassDeclaration]) throws(ModelError) -> (EntityDescription, [PendingRelationship]) {
        var attributes: [AttributeDescription] = []
        var relationships: [PendingRelationship] = []
        var uniqueAttributes: [[String]] = []
        for property in declaration.properties {
            if let target = try relatedClass(property, from: declaration) {
                relationships.append(try relationship(property, of: declaration, to: target))
            } else {
                let attribute = try mapping.attribute(for: property, of: declaration)
                if property.attribute?.isUnique == true { uniqueAttributes.append([attribute.name]) }
                attributes.append(attribute)
            }
        }
        var entity = EntityDescription(
            name: declaration.name, attributes: attributes, line: declaration.place.line
        )
        if let inherited = declaration.inheritedType, let parent = try lookUp(inherited, from: declaration.scope, place: declaration.place),
           selected.contains(where: { $0.place == parent.place }) {
            entity.parentName = parent.name
        }
        let propertyNames = Set(declaration.properties.map(\.name))
        for list in declaration.uniqueConstraints + declaration.indexes {
            if let unknown = list.names.first(where: { !propertyNames.contains($0) }) {
                throw list.place.error("'\(unknown)' is no stored property of \(declaration.name)")
            }
        }
        // Assumed: #Unique's constraints come before @Attribute(.unique)'s (no store shows both).
        entity.uniquenessConstraints = declaration.uniqueConstraints.map(\.names) + uniqueAttributes
        entity.fetchIndexes = declaration.indexes.map { index in
            FetchIndexDescription(
                name: "SwiftDataIndexOnBinary" + index.names.joined(),
                elements: index.names.map { FetchIndexDescription.Element(property: $0) },
                line: index.place.line
            )
        }
        return (entity, relationships)
    }

    private func relationship(_ property: PropertyDeclaration, of declaration: ModelClassDeclaration, to target: ModelClassDeclaration) throws(ModelError) -> PendingRelationship {
        let (type, isOptional) = property.type.unwrapped
        let isToMany: Bool
        switch type {
        case .array(.named): isToMany = true
        case .named: isToMany = false
        default:
            throw property.typePlace.error("'\(property.type)': a relationship is `T`, `T?`, `[T]` or `[T]?` of a @Model class")
        }
        if let attribute = property.attribute, attribute.isUnique || attribute.allowsExternalStorage || attribute.preservesValueOnDeletion || attribute.isEphemeral {
            throw property.place.error("'\(property.name)' is a relationship: these @Attribute options are for attributes; use @Relationship")
        }
        let options = property.relationship
        if !isToMany, options?.minimumCount != nil || options?.maximumCount != nil {
            throw options!.place.error("minimumModelCount and maximumModelCount are for to-many relationships; '\(property.name)' is a to-one")
        }
        var description = RelationshipDescription(
            name: property.name, destinationEntity: target.name, isToMany: isToMany, isOptional: isOptional,
            minCount: options?.minimumCount ?? 0, maxCount: options?.maximumCount,
            deletionRule: options?.deleteRule ?? .nullify,
            versionHashModifier: options?.hashModifier ?? property.attribute?.hashModifier,
            line: property.place.line
        )
        description.renamingIdentifier = options?.originalName ?? property.attribute?.originalName
        var explicitInverse: (entity: String, property: String)?
        if let inverse = options?.inverse {
            let inverseClass = try named(inverse.type, from: declaration.scope, place: options!.place)
            guard inverseClass.name == target.name else {
                throw options!.place.error("inverse: \\\(inverse.type).\(inverse.property) is not on \(target.name), the relationship's destination")
            }
            explicitInverse = (inverseClass.name, inverse.property)
        }
        return PendingRelationship(entity: declaration.name, description: description, explicitInverse: explicitInverse, place: property.place)
    }
}

/// A relationship on its way into an entity: where it is declared and what inverse its source names.
struct PendingRelationship {
    var entity: String
    var description: RelationshipDescription
    var explicitInverse: (entity: String, property: String)?
    var place: SourcePlace
}
