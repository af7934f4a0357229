/// An attribute of an entity, as declared in the model file.
public struct AttributeDescription: Sendable, Hashable, Codable {
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
    /// Xcode's "Renaming ID" (`elementID`): the name this attribute had in an earlier model
    /// version, which a migration carries its values from.
    public var renamingIdentifier: String?
    /// Binary data may live outside the store.
    public var allowsExternalBinaryDataStorage: Bool
    /// Kept in persistent-history tombstones.
    public var preserveAfterDeletion: Bool
    /// `indexed="YES"`: Core Data makes a column index.
    public var isIndexed: Bool
    /// Key/value pairs from `<userInfo>` (e.g. `dateFormat`).
    public var userInfo: [String: String]
    /// The validation rules Core Data applies on save (`minValueString`, `maxValueString`,
    /// `minDateTimeInterval`, `maxDateTimeInterval`, `regularExpressionString`).
    package var validation: Validation = Validation()

    /// An attribute's validation rules, as the model writes them.
    package struct Validation: Sendable, Hashable, Codable {
        /// `minValueString`: the least number, or for a String the least length.
        package var minimum: String?
        /// `maxValueString`: the greatest number, or for a String the greatest length.
        package var maximum: String?
        /// `minDateTimeInterval`: the earliest Date, in seconds since 2001.
        package var earliest: Double?
        /// `maxDateTimeInterval`: the latest Date, in seconds since 2001.
        package var latest: Double?
        /// `regularExpressionString`: a String must match it whole.
        package var pattern: String?

        /// No rules.
        package init(minimum: String? = nil, maximum: String? = nil, earliest: Double? = nil, latest: Double? = nil, pattern: String? = nil) {
            self.minimum = minimum
            self.maximum = maximum
            self.earliest = earliest
            self.latest = latest
            self.pattern = pattern
        }
    }

    /// A Composite attribute's elements (SwiftData's Codable structs and enums), in declaration
    /// order; nil for every other type. Each is an attribute of its own, flags included.
    package var elements: [AttributeDescription]?
    /// The Swift value a SwiftData attribute or element holds where its type alone does not say
    /// it (an enum's cases, an array stored as JSON); nil for every other attribute.
    package var declaredValue: DeclaredValue?
    /// Set on a Composite's element that every value of the Composite must give: a struct's
    /// member whose own type is not optional, inside a Composite that may be nil as a whole.
    /// The element is optional in the model (and hashed so) since a nil Composite leaves it
    /// NULL, but a value with it NULL is one SwiftData cannot decode. Nil everywhere else, so a
    /// seed's model JSON is unchanged for every other attribute.
    package var isRequiredInValue: Bool?
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
