import SeedModel

/// Turns the `@Model` classes the sources declare into a `DataModel`, as SwiftData builds its
/// Core Data model from them: one entity per class, stored properties as attributes or
/// relationships, inverses paired, `#Unique` and `#Index` as constraints and fetch indexes.
struct SchemaAssembler {
    let namespace: TypeNamespace
    /// The `--model` path, the model's source in messages.
    let path: String

    private var mapping: PropertyTypeMapping { PropertyTypeMapping(namespace: namespace) }
    private var classes: [ModelClassDeclaration] { namespace.declarations.classes }

    /// The model of the classes `schema` names from the module's scope (and those they reach
    /// through relationships), or of every class when it is nil.
    func model(schema: [String]?) throws(ModelError) -> DataModel {
        var roots: [Int]
        if let schema {
            roots = []
            for name in schema {
                roots.append(try modelClass(.named(name), from: [], place: nil))
            }
        } else {
            guard !classes.isEmpty else {
                throw ModelError(file: path, line: nil, message: "no @Model class in these Swift sources")
            }
            roots = Array(classes.indices)
        }
        return try model(of: roots, versionIdentifier: SwiftDataModelLoader.defaultVersionIdentifier)
    }

    /// The model one `VersionedSchema` declares: its `models`, named from inside it, with its
    /// version identifier (*assumed* to be what SwiftData stores for it).
    func model(of version: VersionedSchemaDeclaration) throws(ModelError) -> DataModel {
        try model(of: try roots(of: version, depth: 0), versionIdentifier: version.versionIdentifier)
    }

    /// The classes a version's `models` lists, `Other.models + [...]` followed.
    private func roots(of version: VersionedSchemaDeclaration, depth: Int) throws(ModelError) -> [Int] {
        if let failure = version.failure { throw failure }
        guard depth < TypeNamespace.depthLimit else { throw version.modelsPlace.error("models lists refer to each other in a cycle") }
        let scope = namespace.path(of: version)
        var roots: [Int] = []
        for entry in version.models {
            switch entry {
            case .type(let type, let place):
                roots.append(try modelClass(type, from: scope, place: place))
            case .modelsOf(let type, let place):
                guard let other = try versionedSchema(type, from: scope, place: place) else {
                    throw place.error("\(type).models: \(type) is no VersionedSchema of the sources")
                }
                roots += try self.roots(of: other, depth: depth + 1)
            }
        }
        return roots
    }

    /// The `VersionedSchema` a type name means, seen from `scope` (typealiases followed).
    func versionedSchema(_ type: DeclaredType, from scope: [String], place: SourcePlace?) throws(ModelError) -> VersionedSchemaDeclaration? {
        let resolved = try namespace.resolve(type, from: scope, place: place ?? SourcePlace(file: path, line: 0, column: 0))
        guard let target = namespace.nominalPath(of: resolved) else { return nil }
        return namespace.declarations.versionedSchemas.first { namespace.path(of: $0) == target }
    }

    private func model(of roots: [Int], versionIdentifier: String) throws(ModelError) -> DataModel {
        let selected = try select(from: roots)
        var entities: [EntityDescription] = []
        var pending: [PendingRelationship] = []
        for index in selected {
            let (entity, relationships) = try entity(for: index, among: selected)
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
    private func select(from roots: [Int]) throws(ModelError) -> [Int] {
        var selected: [Int] = []
        var pending = roots
        var seen: Set<Int> = []
        while let next = pending.first {
            pending.removeFirst()
            guard seen.insert(next).inserted else { continue }
            let declaration = classes[next]
            if let failure = declaration.failure { throw failure }
            if let twin = selected.first(where: { classes[$0].name == declaration.name }) {
                throw declaration.place.error("a second @Model class named '\(declaration.name)' (the first at \(classes[twin].place)); an entity's name is its class's: choose one with --schema")
            }
            selected.append(next)
            for property in declaration.properties {
                if let target = Self.relatedClass(try mapping.type(of: property, in: namespace.classPaths[next])) { pending.append(target) }
            }
            if let parent = try parentClass(of: next) { pending.append(parent) }
        }
        return selected
    }

    /// The `@Model` class a type means from `scope`; anything else is an error at `place`
    /// (or naming `--schema`).
    private func modelClass(_ type: DeclaredType, from scope: [String], place: SourcePlace?) throws(ModelError) -> Int {
        let at = place ?? SourcePlace(file: path, line: 0, column: 0)
        let resolved: ResolvedType
        do throws(ModelError) {
            resolved = try namespace.resolve(type, from: scope, place: at)
        } catch {
            guard place == nil else { throw error }
            throw ModelError(file: path, line: nil, message: "--schema \(type): \(error.message)")
        }
        if case .model(let index) = resolved { return index }
        let message = "no @Model class named '\(type)' in the Swift sources"
        throw place?.error(message) ?? ModelError(file: path, line: nil, message: message + " (--schema)")
    }

    /// The class a property's type names (`T`, `T?`, `[T]`, `[T]?`), if it is a `@Model` class.
    private static func relatedClass(_ resolved: ResolvedType) -> Int? {
        var type = resolved.unwrapped.type
        if case .array(let element) = type { type = element }
        if case .model(let index) = type { return index }
        return nil
    }

    /// The class's superclass, when that is a `@Model` class (looked up from where the class is written).
    private func parentClass(of index: Int) throws(ModelError) -> Int? {
        guard let inherited = classes[index].inheritedType else { return nil }
        let scope = Array(namespace.classPaths[index].dropLast())
        if case .model(let parent) = try namespace.resolve(inherited, from: scope, place: classes[index].place) { return parent }
        return nil
    }

    /// One entity and its relationships (still to be paired with their inverses).
    private func entity(for index: Int, among selected: [Int]) throws(ModelError) -> (EntityDescription, [PendingRelationship]) {
        let declaration = classes[index]
        var attributes: [AttributeDescription] = []
        var relationships: [PendingRelationship] = []
        var uniqueAttributes: [[String]] = []
        try PropertyNames.check(declaration)
        for property in declaration.properties {
            let type = try mapping.type(of: property, in: namespace.classPaths[index])
            if let target = Self.relatedClass(type) {
                relationships.append(try relationship(property, type: type, of: index, to: target))
            } else {
                let attribute = try mapping.attribute(for: property, type: type)
                if property.attribute?.isUnique == true { uniqueAttributes.append([attribute.name]) }
                attributes.append(attribute)
            }
        }
        var entity = EntityDescription(name: declaration.name, attributes: attributes, line: declaration.place.line)
        if let parent = try parentClass(of: index), selected.contains(parent) {
            entity.parentName = classes[parent].name
        }
        let propertyNames = Set(declaration.properties.map(\.name))
        for list in declaration.uniqueConstraints + declaration.indexes {
            if let unknown = list.names.first(where: { !propertyNames.contains($0) }) {
                throw list.place.error("'\(unknown)' is no stored property of \(declaration.name)")
            }
        }
        // Assumed: #Unique's constraints come before @Attribute(.unique)'s (no store shows both);
        // one that both declare is one constraint (Core Data keeps a constraint once).
        var constraints: [[String]] = []
        for constraint in declaration.uniqueConstraints.map(\.names) + uniqueAttributes where !constraints.contains(constraint) {
            constraints.append(constraint)
        }
        entity.uniquenessConstraints = constraints
        entity.fetchIndexes = declaration.indexes.map { index in
            FetchIndexDescription(
                name: "SwiftDataIndexOnBinary" + index.names.joined(),
                elements: index.names.map { FetchIndexDescription.Element(property: $0) },
                line: index.place.line
            )
        }
        return (entity, relationships)
    }

    private func relationship(_ property: PropertyDeclaration, type: ResolvedType, of owner: Int, to target: Int) throws(ModelError) -> PendingRelationship {
        let declaration = classes[owner]
        let (base, isOptional) = type.unwrapped
        let isToMany: Bool
        switch base {
        case .array(.model): isToMany = true
        case .model: isToMany = false
        default:
            throw property.typePlace.error("'\(property.name)': a relationship is `T`, `T?`, `[T]` or `[T]?` of a @Model class")
        }
        if let attribute = property.attribute, attribute.isUnique || attribute.allowsExternalStorage || attribute.preservesValueOnDeletion || attribute.isEphemeral {
            throw property.place.error("'\(property.name)' is a relationship: these @Attribute options are for attributes; use @Relationship")
        }
        let options = property.relationship
        if !isToMany, options?.minimumCount != nil || options?.maximumCount != nil {
            throw options!.place.error("minimumModelCount and maximumModelCount are for to-many relationships; '\(property.name)' is a to-one")
        }
        var description = RelationshipDescription(
            name: property.name, destinationEntity: classes[target].name, isToMany: isToMany, isOptional: isOptional,
            minCount: options?.minimumCount ?? 0, maxCount: options?.maximumCount,
            deletionRule: options?.deleteRule ?? .nullify,
            versionHashModifier: options?.hashModifier ?? property.attribute?.hashModifier,
            line: property.place.line
        )
        description.renamingIdentifier = options?.originalName ?? property.attribute?.originalName
        var explicitInverse: (entity: String, property: String)?
        if let options, let inverse = options.inverse {
            let inverseClass = try modelClass(inverse.type, from: namespace.classPaths[owner], place: options.place)
            guard inverseClass == target else {
                throw options.place.error("inverse: \\\(inverse.type).\(inverse.property) is not on \(classes[target].name), the relationship's destination")
            }
            explicitInverse = (classes[inverseClass].name, inverse.property)
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
