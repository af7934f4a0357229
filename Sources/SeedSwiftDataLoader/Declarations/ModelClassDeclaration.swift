import SeedModel

/// A `@Model` class as its source declares it: what becomes one entity.
struct ModelClassDeclaration: ScopedDeclaration {
    /// The class's name, which is the entity's.
    var name: String
    var context: [ScopeStep]
    var place: SourcePlace
    /// The first type of its inheritance clause: its superclass when that is a `@Model` class.
    var inheritedType: DeclaredType?
    /// Its stored properties, in declaration order (`@Transient`, computed and static ones left out).
    var properties: [PropertyDeclaration]
    /// `#Unique<T>(...)`: each constraint's property names.
    var uniqueConstraints: [NamedPaths]
    /// `#Index<T>(...)`: each index's property names.
    var indexes: [NamedPaths]
    /// The first thing in the class not understood: thrown when the class joins a model.
    var failure: ModelError?
}

/// Property names a macro lists (`[\.name, \.date]`), and where.
struct NamedPaths {
    var names: [String]
    var place: SourcePlace
}

/// A stored property of a `@Model` class or of a struct.
struct PropertyDeclaration {
    var name: String
    var place: SourcePlace
    /// Its annotated type; nil when the type comes from the initial value.
    var annotation: DeclaredType?
    /// Where its type is written (or its initial value, for an inferred type).
    var typePlace: SourcePlace
    /// The initial value, if any.
    var initial: InitialValue?
    /// What `@Attribute(...)` says, if present.
    var attribute: AttributeOptions?
    /// What `@Relationship(...)` says, if present.
    var relationship: RelationshipOptions?

    /// The initial value as a model default, when it is a literal.
    var literalDefault: String? { initial?.literal }
}

/// `@Attribute(options..., originalName:, hashModifier:)`.
struct AttributeOptions {
    var isUnique = false
    var allowsExternalStorage = false
    var preservesValueOnDeletion = false
    var isEphemeral = false
    /// `.spotlight`: Core Data's `isIndexedBySpotlight`, in neither the version hash nor the store.
    var isIndexedBySpotlight = false
    /// `.allowsCloudEncryption`: CloudKit's, in neither the version hash nor the store.
    var allowsCloudEncryption = false
    var originalName: String?
    var hashModifier: String?
}

/// `@Relationship(deleteRule:, minimumModelCount:, maximumModelCount:, originalName:, inverse:, hashModifier:)`.
struct RelationshipOptions {
    var deleteRule: RelationshipDescription.DeletionRule = .nullify
    var minimumCount: Int?
    var maximumCount: Int?
    var originalName: String?
    /// `inverse: \Type.property`: the root type as written and the property.
    var inverse: (type: DeclaredType, property: String)?
    var hashModifier: String?
    var place: SourcePlace
}
