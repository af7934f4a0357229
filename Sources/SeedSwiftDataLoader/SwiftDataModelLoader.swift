import SeedModel

/// Reads a SwiftData app's model from its sources: the `@Model` classes of a `.swift` file or
/// of every `.swift` file under a folder, parsed by swift-syntax (Apple's own Swift parser).
///
/// The model is the Core Data model SwiftData builds from those classes, so seedgen writes and
/// checks a SwiftData store as it does a Core Data one. Names resolve as the Swift compiler
/// resolves them; what the reader does not understand is refused at its `file:line:column`,
/// never guessed, and only where the model being read uses it.
public enum SwiftDataModelLoader {
    /// The version identifier SwiftData stores for a schema that declares none
    /// (`NSStoreModelVersionIdentifiers` = `["1.0.0"]` in real stores).
    package static let defaultVersionIdentifier = "1.0.0"

    /// The model of the `@Model` classes under `path`: the current version of
    /// ``loadVersions(from:schema:)``.
    ///
    /// - Parameters:
    ///   - path: a `.swift` file, or a folder whose `.swift` files are read.
    ///   - schema: as for ``loadVersions(from:schema:)``.
    public static func load(from path: String, schema: [String]? = nil) throws(ModelError) -> DataModel {
        try loadVersions(from: path, schema: schema).current.model
    }

    /// The model's versions: where the sources declare a `SchemaMigrationPlan`, its `schemas`
    /// in order (each `VersionedSchema`'s `models`) with its custom stages; otherwise one version.
    ///
    /// Only the current version must read: another version the reader does not understand is
    /// listed among the versions' unreadable ones (a store it made cannot be migrated from here).
    ///
    /// - Parameters:
    ///   - path: a `.swift` file, or a folder whose `.swift` files are read.
    ///   - schema: the classes as the app passes them to `ModelContainer(for:)` (`Trip` or
    ///     `SchemaV1.Trip`; the classes they reach by relationships join them), or one
    ///     `VersionedSchema` type or a typealias of one (its `models`), which is then the current
    ///     version. Nil takes the plan's last schema, or without a plan every `@Model` class found.
    public static func loadVersions(from path: String, schema: [String]? = nil) throws(ModelError) -> ModelVersions {
        if let schema, schema.isEmpty || schema.contains(where: \.isEmpty) {
            throw ModelError(file: path, line: nil, message: "--schema names no type: give the @Model classes (Trip,Stop) or a VersionedSchema")
        }
        var declarations = SourceDeclarations()
        for file in try SwiftSourceFiles.list(path) {
            declarations.append(DeclarationCollector.declarations(in: try ParsedSource(path: file)))
        }
        let namespace = TypeNamespace(declarations)
        let assembler = SchemaAssembler(namespace: namespace, path: path)
        var named: VersionedSchemaDeclaration?
        if let schema, schema.count == 1 {
            named = try assembler.versionedSchema(.named(schema[0]), from: [], place: nil)
        }
        let plans = MigrationPlanReader(assembler: assembler)
        let plan = try plans.plan(for: named, among: declarations.migrationPlans, path: path)

        // The current version first: it alone must read.
        let current: ModelVersions.Version
        if let named {
            current = .init(name: plans.name(of: named), model: try assembler.model(of: named))
        } else if let schema {
            current = .init(name: defaultVersionIdentifier, model: try assembler.model(schema: schema))
        } else if let plan {
            if let failure = plan.failure { throw failure }
            guard let (type, place) = plan.schemas.last else { throw plan.schemasPlace.error("\(plan.name).schemas is empty") }
            guard let last = try assembler.versionedSchema(type, from: plans.scope(of: plan), place: place) else {
                throw place.error("\(plan.name).schemas names \(type), which is no VersionedSchema of the sources")
            }
            current = .init(name: plans.name(of: last), model: try assembler.model(of: last))
        } else {
            current = .init(name: defaultVersionIdentifier, model: try assembler.model(schema: nil))
        }
        guard let plan, plan.failure == nil else { return ModelVersions(versions: [current], current: current) }
        return plans.versions(of: plan, current: current)
    }
}
