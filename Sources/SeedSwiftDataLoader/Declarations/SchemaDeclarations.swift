import SeedModel

/// What the Swift sources declare that makes a SwiftData model, in file order.
struct SourceDeclarations {
    var classes: [ModelClassDeclaration] = []
    var valueTypes: [ValueTypeDeclaration] = []
    var aliases: [TypeAliasDeclaration] = []
    var versionedSchemas: [VersionedSchemaDeclaration] = []
    var migrationPlans: [MigrationPlanDeclaration] = []
    /// Static properties and enum cases of every type, for the type of `Type.member`.
    var statics: [StaticMemberDeclaration] = []
    /// Static properties and functions anywhere, by name, with the migration stages they make:
    /// what a plan's `stages` may name (`migrateV1toV2`, `.migrateV1ToV2()`).
    var stageMakers: [String: [StageDeclaration]] = [:]

    mutating func append(_ other: SourceDeclarations) {
        classes += other.classes
        valueTypes += other.valueTypes
        aliases += other.aliases
        versionedSchemas += other.versionedSchemas
        migrationPlans += other.migrationPlans
        statics += other.statics
        stageMakers.merge(other.stageMakers) { $0 + $1 }
    }
}

/// One entry of a `VersionedSchema`'s `models`: a type (`Trip.self`) or another schema's whole
/// list (`SchemaV1.models + [...]`).
enum ModelListEntry {
    case type(DeclaredType, SourcePlace)
    case modelsOf(DeclaredType, SourcePlace)
}

/// A type conforming to `VersionedSchema`: one version of the model.
struct VersionedSchemaDeclaration: ScopedDeclaration {
    var name: String
    var context: [ScopeStep]
    var place: SourcePlace
    /// `static var versionIdentifier = Schema.Version(2, 0, 0)`, as `2.0.0`.
    var versionIdentifier: String
    /// `static var models: [any PersistentModel.Type] { [Trip.self, …] }`.
    var models: [ModelListEntry]
    /// Where `models` is written, for messages about its names.
    var modelsPlace: SourcePlace
    /// What in its members is not understood (thrown when the version is read).
    var failure: ModelError?
}

/// A migration stage as the source makes it: `.lightweight(fromVersion:toVersion:)` or
/// `.custom(fromVersion:toVersion:willMigrate:didMigrate:)`.
struct StageDeclaration {
    enum Kind { case lightweight, custom }
    var kind: Kind
    var from: DeclaredType?
    var to: DeclaredType?
    var place: SourcePlace
}

/// One entry of a plan's `stages`, as far as it is known.
enum StageEntry {
    /// A stage made in place (`.custom(fromVersion: …)`).
    case direct(StageDeclaration)
    /// A stage a static property or function makes (`migrateV1toV2`, `.migrateV1ToV2()`): its name.
    case named(String, SourcePlace)
    /// An entry whose stage is not known here (its text).
    case unknown(String, SourcePlace)
}

/// A type conforming to `SchemaMigrationPlan`: the model's versions in order.
struct MigrationPlanDeclaration: ScopedDeclaration {
    var name: String
    var context: [ScopeStep]
    var place: SourcePlace
    /// `static var schemas: [any VersionedSchema.Type] { [V1.self, V2.self] }`: the types, in order.
    var schemas: [(DeclaredType, SourcePlace)]
    var schemasPlace: SourcePlace
    /// `static var stages: [MigrationStage]`, entry by entry (named stages resolved later).
    var stages: [StageEntry]
    /// What in its members is not understood.
    var failure: ModelError?
}

/// A static property or an enum case, written in `context` (whose last step is its type), for
/// the type of an initial value `Type.member`.
struct StaticMemberDeclaration {
    var name: String
    var context: [ScopeStep]
    /// Its annotated type (an enum case's is the enum).
    var annotation: DeclaredType?
    var initial: InitialValue?
}
