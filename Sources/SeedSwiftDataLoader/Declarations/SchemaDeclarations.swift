/// What the Swift sources declare that makes a SwiftData model, in file order.
struct SourceDeclarations {
    var classes: [ModelClassDeclaration] = []
    var valueTypes: [ValueTypeDeclaration] = []
    var versionedSchemas: [VersionedSchemaDeclaration] = []
    var migrationPlans: [MigrationPlanDeclaration] = []

    mutating func append(_ other: SourceDeclarations) {
        classes += other.classes
        valueTypes += other.valueTypes
        versionedSchemas += other.versionedSchemas
        migrationPlans += other.migrationPlans
    }
}

/// A type conforming to `VersionedSchema`: one version of the model.
struct VersionedSchemaDeclaration: ScopedDeclaration {
    var name: String
    var scope: [String]
    var place: SourcePlace
    /// `static var versionIdentifier = Schema.Version(2, 0, 0)`, as `2.0.0`.
    var versionIdentifier: String
    /// `static var models: [any PersistentModel.Type] { [Trip.self, …] }`: the type names, in order.
    var models: [String]
    /// Where `models` is written, for messages about its names.
    var modelsPlace: SourcePlace
}

/// A type conforming to `SchemaMigrationPlan`: the model's versions in order.
struct MigrationPlanDeclaration {
    var name: String
    var place: SourcePlace
    /// `static var schemas: [any VersionedSchema.Type] { [V1.self, V2.self] }`: the names, in order.
    var schemas: [String]
    var schemasPlace: SourcePlace
}
