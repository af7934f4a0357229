/// An entity of a Core Data model, with its own (not inherited) properties.
public struct EntityDescription: Sendable, Hashable, Codable {
    /// The entity's name.
    public var name: String
    /// The parent entity's name (single inheritance), if any.
    public var parentName: String?
    /// `isAbstract="YES"`: no object is ever of exactly this entity.
    public var isAbstract: Bool
    /// Mixed into the version hash when set.
    public var versionHashModifier: String?
    /// Xcode's "Renaming ID" (`elementID`); Core Data keeps an old `Z_NAME` equal to it.
    public var renamingIdentifier: String?
    /// Key/value pairs from `<userInfo>`.
    public var userInfo: [String: String]
    /// Own attributes, sorted by name in byte order.
    public var attributes: [AttributeDescription]
    /// Own relationships, sorted by name in byte order.
    public var relationships: [RelationshipDescription]
    /// Own fetched properties (no column, not hashed).
    public var fetchedProperties: [FetchedPropertyDescription]
    /// Fetch indexes, in file order.
    public var fetchIndexes: [FetchIndexDescription]
    /// Uniqueness constraints: each one a list of property names, in file order.
    public var uniquenessConstraints: [[String]]
    /// Legacy compound indexes (`<compoundIndexes>`, before fetch indexes existed), in file order.
    package var compoundIndexes: [CompoundIndexDescription] = []
    /// The line of the `<entity>` element in the model file.
    public var line: Int

    /// Creates an entity; attributes and relationships are sorted by name.
    public init(
        name: String, parentName: String? = nil, isAbstract: Bool = false,
        versionHashModifier: String? = nil, renamingIdentifier: String? = nil,
        userInfo: [String: String] = [:], attributes: [AttributeDescription] = [],
        relationships: [RelationshipDescription] = [], fetchedProperties: [FetchedPropertyDescription] = [],
        fetchIndexes: [FetchIndexDescription] = [], uniquenessConstraints: [[String]] = [],
        line: Int = 0
    ) {
        self.name = name
        self.parentName = parentName
        self.isAbstract = isAbstract
        self.versionHashModifier = versionHashModifier
        self.renamingIdentifier = renamingIdentifier
        self.userInfo = userInfo
        self.attributes = attributes.sorted { DataModel.namePrecedes($0.name, $1.name) }
        self.relationships = relationships.sorted { DataModel.namePrecedes($0.name, $1.name) }
        self.fetchedProperties = fetchedProperties
        self.fetchIndexes = fetchIndexes
        self.uniquenessConstraints = uniquenessConstraints
        self.line = line
    }

    /// The own attribute with this name.
    public func attribute(named name: String) -> AttributeDescription? {
        attributes.first { $0.name == name }
    }

    /// The own relationship with this name.
    public func relationship(named name: String) -> RelationshipDescription? {
        relationships.first { $0.name == name }
    }
}
