/// A named fetch request stored in the model (`NSManagedObjectModel.fetchRequestTemplate(forName:)`).
public struct FetchRequestTemplate: Sendable, Hashable, Codable {
    /// The template's name, e.g. `initialisationCheck`.
    public var name: String
    /// The entity it fetches.
    public var entity: String
    /// The predicate in NSPredicate format syntax; nil fetches every object.
    public var predicate: String?
    /// `fetchLimit`, when set.
    public var fetchLimit: Int?
    /// `includeSubentities`; nil when the file does not say (Core Data's default is YES).
    public var includesSubentities: Bool?
    /// The line of the `<fetchRequest>` element in the model file.
    public var line: Int

    /// Creates a template.
    public init(name: String, entity: String, predicate: String?, fetchLimit: Int? = nil,
                includesSubentities: Bool? = nil, line: Int = 0) {
        self.name = name
        self.entity = entity
        self.predicate = predicate
        self.fetchLimit = fetchLimit
        self.includesSubentities = includesSubentities
        self.line = line
    }
}
