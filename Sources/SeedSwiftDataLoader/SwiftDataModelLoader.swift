import SeedModel

/// Reads a SwiftData app's model from its sources: the `@Model` classes of a `.swift` file or
/// of every `.swift` file under a folder, parsed by swift-syntax (Apple's own Swift parser).
///
/// The model is the Core Data model SwiftData builds from those classes, so seedgen writes and
/// checks a SwiftData store as it does a Core Data one. What the reader does not understand is
/// refused at its `file:line:column`, never guessed.
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
    /// in order (each `VersionedSchema`'s `models`), the last one current; otherwise one version.
    ///
    /// - Parameters:
    ///   - path: a `.swift` file, or a folder whose `.swift` files are read.
    ///   - schema: the classes as the app passes them to `ModelContainer(for:)` (`Trip` or
    ///     `SchemaV1.Trip`; the classes they reach by relationships join them), or one
    ///     `VersionedSchema` type (its `models`), which is then the current version. Nil takes
    ///     the plan's last schema, or without a plan every `@Model` class found.
    public static func loadVersions(from path: String, schema: [String]? = nil) throws(ModelError) -> ModelVersions {
        var declarations = SourceDeclarations()
        for file in try SwiftSourceFiles.list(path) {
            declarations.append(try DeclarationCollector.declarations(in: try ParsedSource(path: file)))
        }
        let assembler = SchemaAssembler(classes: declarations.classes, mapping: PropertyTypeMapping(valueTypes: declarations.valueTypes), path: path)
        var versioned: VersionedSchemaDeclaration?
        if let schema, schema.count == 1 { versioned = try versionedSchema(schema[0], in: declarations, path: path) }
        if declarations.migrationPlans.count > 1 {
            let places = declarations.migrationPlans.map { "\($0.name) at \($0.place)" }.joined(separator: ", ")
            throw declarations.migrationPlans[1].place.error("several SchemaMigrationPlans (\(places)): which one the app uses is not known")
        }
        if let plan = declarations.migrationPlans.first {
            var versions: [ModelVersions.Version] = []
            for name in plan.schemas {
                guard let version = try versionedSchema(name, in: declarations, path: path) else {
                    throw plan.schemasPlace.error("\(plan.name).schemas names \(name), which is no VersionedSchema of the sources")
                }
                versions.append(ModelVersions.Version(name: version.qualifiedName, model: try assembler.model(of: version)))
            }
            guard let last = versions.last else { throw plan.schemasPlace.error("\(plan.name).schemas is empty") }
            if let versioned {
                guard let current = versions.first(where: { $0.name == versioned.qualifiedName }) else {
                    throw versioned.place.error("\(versioned.qualifiedName) is not among \(plan.name).schemas")
                }
                return ModelVersions(versions: versions, current: current)
            }
            if let schema {
                throw plan.place.error("the sources declare the SchemaMigrationPlan \(plan.name): --schema names one of its schemas (\(plan.schemas.joined(separator: ", "))), not \(schema.joined(separator: ","))")
            }
            return ModelVersions(versions: versions, current: last)
        }
        let model = if let versioned { try assembler.model(of: versioned) } else { try assembler.model(schema: schema) }
        let version = ModelVersions.Version(name: versioned?.qualifiedName ?? model.versionIdentifier, model: model)
        return ModelVersions(versions: [version], current: version)
    }

    /// The `VersionedSchema` `name` means (`SchemaV2`, `Outer.SchemaV2`), if one.
    private static func versionedSchema(_ name: String, in declarations: SourceDeclarations, path: String) throws(ModelError) -> VersionedSchemaDeclaration? {
        try declarations.versionedSchemas.resolve(name, from: [], kind: "VersionedSchemas", place: nil, file: path)
    }
}
