/// A relationship of an entity, as declared in the model file.
public struct RelationshipDescription: Sendable, Hashable, Codable {
    /// What happens to the destination when the source is deleted.
    public enum DeletionRule: String, Sendable, Hashable, Codable {
        case nullify = "Nullify"
        case cascade = "Cascade"
        case deny = "Deny"
        case noAction = "No Action"
    }

    /// The relationship's name.
    public var name: String
    /// The entity it points to.
    public var destinationEntity: String
    /// The inverse relationship's name, declared on the destination entity.
    public var inverseName: String?
    /// The entity that declares the inverse (`inverseEntity`).
    public var inverseEntity: String?
    /// `toMany="YES"`.
    public var isToMany: Bool
    /// `ordered="YES"` (an ordered to-many).
    public var isOrdered: Bool
    /// `optional="YES"`.
    public var isOptional: Bool
    /// `transient="YES"`.
    public var isTransient: Bool
    /// `minCount`, 0 when absent.
    public var minCount: Int
    /// `maxCount`, 0 (unbounded) when absent on a to-many; 1 for a to-one.
    public var maxCount: Int
    /// The deletion rule.
    public var deletionRule: DeletionRule
    /// Mixed into the version hash when set.
    public var versionHashModifier: String?
    /// Xcode's "Renaming ID" (`elementID`): the name this relationship had in an earlier model
    /// version, which a migration carries its links from.
    public var renamingIdentifier: String?
    /// Key/value pairs from `<userInfo>`.
    public var userInfo: [String: String]
    /// The line of the `<relationship>` element in the model file.
    public var line: Int

    /// Creates a relationship; a to-one unless `isToMany` is set.
    public init(
        name: String, destinationEntity: String, inverseName: String? = nil, inverseEntity: String? = nil,
        isToMany: Bool = false, isOrdered: Bool = false, isOptional: Bool = true, isTransient: Bool = false,
        minCount: Int = 0, maxCount: Int? = nil, deletionRule: DeletionRule = .nullify,
        versionHashModifier: String? = nil, userInfo: [String: String] = [:], line: Int = 0
    ) {
        self.name = name
        self.destinationEntity = destinationEntity
        self.inverseName = inverseName
        self.inverseEntity = inverseEntity
        self.isToMany = isToMany
        self.isOrdered = isOrdered
        self.isOptional = isOptional
        self.isTransient = isTransient
        self.minCount = minCount
        self.maxCount = maxCount ?? (isToMany ? 0 : 1)
        self.deletionRule = deletionRule
        self.versionHashModifier = versionHashModifier
        self.userInfo = userInfo
        self.line = line
    }
}
