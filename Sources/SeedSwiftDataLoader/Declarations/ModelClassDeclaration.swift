import SeedModel

/// A `@Model` class as its source declares it: what becomes one entity.
struct ModelClassDeclaration: ScopedDeclaration {
    /// The class's name, which is the entity's.
    var name: String
    /// The types it is declared inside (`["SchemaV1"]` for a class of a versioned schema).
    var scope: [String]
    var place: SourcePlace
    /// The first type of its inheritance clause: its superclass when that is a `@Model` class.
    var inheritedType: String?
    /// Its stored properties, in declaration order (`@Transient`, computed and static ones left out).
    var properties: [PropertyDeclaration]
    /// `#Unique<T>(...)`: each constraint's property names.
    var uniqueConstraints: [NamedPaths]
    /// `#Index<T>(...)`: each index's property names.
    var indexes: [NamedPaths]
}

/// Property names a macro lists (`[\.name, \.date]`), and where.
struct NamedPaths {
    var names: [String]
    var place: SourcePlace
}

/// A stored property of a `@Model` class.
struct PropertyDeclaration {
    var name: String
    var place: SourcePlace
    /// Its type, annotated or read off a literal or a call of a type (`= "1"`, `= UUID()`).
    var type: DeclaredType
    /// Where its type is written (or its initial value, for an inferred type).
    var typePlace: SourcePlace
    /// The initial value when it is a literal, as Core Data writes defaults (`YES`, `1`, text;
    /// an array of string literals as its JSON text).
    var literalDefault: String?
    /// The initial value when it names an enum's case (`= .calm`, `= Mood.calm`): the case's name.
    var caseDefault: String? = nil
    /// What `@Attribute(...)` says, if present.
    var attribute: AttributeOptions?
    /// What `@Relationship(...)` says, if present.
    var relationship: RelationshipOptions?
}

/// `@Attribute(options..., originalName:, hashModifier:)`.
struct AttributeOptions {
    var isUnique = false
    var allowsExternalStorage = false
    var preservesValueOnDeletion = false
    var isEphemeral = false
    var originalName: String?
    var hashModifier: String?
}

/// `@Relationship(deleteRule:, minimumModelCount:, maximumModelCount:, originalName:, inverse:, hashModifier:)`.
struct RelationshipOptions {
    var deleteRule: RelationshipDescription.DeletionRule = .nullify
    var minimumCount: Int?
    var maximumCount: Int?
    var originalName: String?
    /// `inverse: \Type.property`.
    var inverse: (type: String, property: String)?
    var hashModifier: String?
    var place: SourcePlace
}
