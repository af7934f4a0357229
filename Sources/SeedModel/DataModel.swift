/// A Core Data model: its entities, fetch request templates and version identifier.
///
/// Built by `ModelLoader` from a model file, or directly in code. Construction checks that
/// every reference resolves (parents, destinations, inverses) and that inheritance has no cycle.
public struct DataModel: Sendable {
    /// Every entity, sorted by name in byte order.
    public let entities: [EntityDescription]
    /// Named fetch request templates, in file order.
    public let fetchRequests: [FetchRequestTemplate]
    /// `userDefinedModelVersionIdentifier`, `""` when unset.
    public let versionIdentifier: String
    /// The file the model was read from (for messages).
    public let source: String

    private let indexByName: [String: Int]

    /// Creates a model and checks that it is consistent.
    public init(
        entities: [EntityDescription], fetchRequests: [FetchRequestTemplate] = [],
        versionIdentifier: String = "", source: String = "<model>"
    ) throws(ModelError) {
        self.entities = entities.sorted { Self.namePrecedes($0.name, $1.name) }
        self.fetchRequests = fetchRequests
        self.versionIdentifier = versionIdentifier
        self.source = source
        var index: [String: Int] = [:]
        for (position, entity) in self.entities.enumerated() {
            if index[entity.name] != nil {
                throw ModelError(file: source, line: entity.line, message: "duplicate entity name '\(entity.name)'")
            }
            index[entity.name] = position
        }
        self.indexByName = index
        try validate()
    }

    /// Core Data's name order: byte order of the UTF-8 names.
    public static func namePrecedes(_ lhs: String, _ rhs: String) -> Bool {
        lhs.utf8.lexicographicallyPrecedes(rhs.utf8)
    }

    /// The entity with this name.
    public func entity(named name: String) -> EntityDescription? {
        indexByName[name].map { entities[$0] }
    }

    /// The parent of an entity, if any.
    public func parent(of entity: EntityDescription) -> EntityDescription? {
        entity.parentName.flatMap { self.entity(named: $0) }
    }

    /// The entity followed by its ancestors, up to the root.
    public func lineage(of entity: EntityDescription) -> [EntityDescription] {
        var result = [entity]
        while let parent = parent(of: result[result.count - 1]) { result.append(parent) }
        return result
    }

    /// The root of an entity's inheritance tree (the entity itself when it has no parent).
    public func root(of entity: EntityDescription) -> EntityDescription {
        lineage(of: entity).last!
    }

    /// The direct sub-entities of an entity, sorted by name.
    public func subentities(of entity: EntityDescription) -> [EntityDescription] {
        entities.filter { $0.parentName == entity.name }
    }

    /// The entities without a parent, sorted by name.
    public var rootEntities: [EntityDescription] {
        entities.filter { $0.parentName == nil }
    }

    /// True when `entity` is `ancestor` or inherits from it.
    public func entity(_ entity: EntityDescription, isKindOf ancestor: EntityDescription) -> Bool {
        lineage(of: entity).contains { $0.name == ancestor.name }
    }

    /// The entity's attributes including inherited ones, sorted by name.
    public func allAttributes(of entity: EntityDescription) -> [AttributeDescription] {
        lineage(of: entity).flatMap(\.attributes).sorted { Self.namePrecedes($0.name, $1.name) }
    }

    /// The entity's relationships including inherited ones, sorted by name.
    public func allRelationships(of entity: EntityDescription) -> [RelationshipDescription] {
        lineage(of: entity).flatMap(\.relationships).sorted { Self.namePrecedes($0.name, $1.name) }
    }

    /// The entity that declares the named property: `entity` itself or the ancestor it inherits it from.
    public func declaringEntity(of property: String, from entity: EntityDescription) -> EntityDescription? {
        lineage(of: entity).first { $0.attribute(named: property) != nil || $0.relationship(named: property) != nil }
    }

    /// The natural key seedgen uses for an entity: the first uniqueness constraint of the
    /// entity or of its nearest ancestor that has one, and the entity that declares it.
    public func uniquenessKey(of entity: EntityDescription) -> (names: [String], declaringEntity: EntityDescription)? {
        lineage(of: entity).lazy.compactMap { owner in
            owner.uniquenessConstraints.first.map { (names: $0, declaringEntity: owner) }
        }.first
    }

    /// The attributes that name an entity's objects in a build: along the lineage, the nearest
    /// entity with a build-time key (`buildKeys`, entity name -> attribute names) or a
    /// uniqueness constraint decides, a build-time key first. Its whole subtree shares the key.
    package func naturalKey(of entity: EntityDescription, buildKeys: [String: [String]]) -> (names: [String], declaringEntity: EntityDescription)? {
        for owner in lineage(of: entity) {
            if let names = buildKeys[owner.name] { return (names, owner) }
            if let names = owner.uniquenessConstraints.first { return (names, owner) }
        }
        return nil
    }

    /// The entity's natural key when it is one attribute (the only kind a reference can name).
    public func singleAttributeKey(of entity: EntityDescription) -> AttributeDescription? {
        guard let key = uniquenessKey(of: entity), key.names.count == 1 else { return nil }
        return allAttributes(of: entity).first { $0.name == key.names[0] }
    }

    /// The relationship's inverse, if it declares one.
    public func inverse(of relationship: RelationshipDescription) -> RelationshipDescription? {
        guard let inverseName = relationship.inverseName,
              let destination = entity(named: relationship.inverseEntity ?? relationship.destinationEntity)
        else { return nil }
        return allRelationships(of: destination).first { $0.name == inverseName }
    }

    /// The named fetch request template.
    public func fetchRequest(named name: String) -> FetchRequestTemplate? {
        fetchRequests.first { $0.name == name }
    }
}
