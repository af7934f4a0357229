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
    public static let defaultVersionIdentifier = "1.0.0"

    /// The model of the `@Model` classes under `path`.
    ///
    /// - Parameter schema: the classes as the app passes them to `ModelContainer(for:)`
    ///   (`Trip` or `SchemaV1.Trip`); the classes they reach by relationships join them. Nil
    ///   takes every `@Model` class found.
    public static func load(from path: String, schema: [String]? = nil) throws(ModelError) -> DataModel {
        var classes: [ModelClassDeclaration] = []
        var valueTypes: [ValueTypeDeclaration] = []
        for file in try SwiftSourceFiles.list(path) {
            let found = try DeclarationCollector.declarations(in: try ParsedSource(path: file))
            classes += found.classes
            valueTypes += found.valueTypes
        }
        return try SchemaAssembler(classes: classes, mapping: PropertyTypeMapping(valueTypes: valueTypes), path: path).model(schema: schema)
    }
}
