/// An attribute of an entity, as declared in the model file.
public struct AttributeDescription: Sendable, Hashable {
    /// The attribute's name.
    public var name: String
    /// The storage type.
    public var type: AttributeType
    /// `optional="YES"`: a row may hold nil.
    public var isOptional: Bool
    /// `transient="YES"`: kept in memory only, no column.
    public var isTransient: Bool
    /// The default value as written (`defaultValueString`, or `defaultDateTimeInterval` for dates).
    public var defaultValue: String?
    /// Mixed into the version hash when set.
    public var versionHashModifier: String?
    /// Binary data may live outside the store.
    public var allowsExternalBinaryDataStorage: Bool
    /// Kept in persistent-history tombstones.
    public var preserveAfterDeletion: Bool
    /// `indexed="YES"`: Core Data makes a column index.
    public var isIndexed: Bool
    /// Key/value pairs from `<userInfo>` (e.g. `dateFormat`).
    public var userInfo: [String: String]
    /// The line of the `<attribute>` element in the model file.
    public var line: Int

    /// Creates an attribute; every flag defaults to off.
    public init(
        name: String, type: AttributeType, isOptional: Bool = false, isTransient: Bool = false,
        defaultValue: String? = nil, versionHashModifier: String? = nil,
        allowsExternalBinaryDataStorage: Bool = false, preserveAfterDeletion: Bool = false,
        isIndexed: Bool = false, userInfo: [String: String] = [:], line: Int = 0
    ) {
        self.name = name
        self.type = type
        self.isOptional = isOptional
        self.isTransient = isTransient
        self.defaultValue = defaultValue
        self.versionHashModifier = versionHashModifier
        self.allowsExternalBinaryDataStorage = allowsExternalBinaryDataStorage
        self.preserveAfterDeletion = preserveAfterDeletion
        self.isIndexed = isIndexed
        self.userInfo = userInfo
        self.line = line
    }
}
