/// A fetched property: a stored fetch request on an entity, with no column in the store.
public struct FetchedPropertyDescription: Sendable, Hashable, Codable {
    /// The property's name.
    public var name: String
    /// The entity it fetches.
    public var entity: String
    /// Its predicate (may use `$FETCH_SOURCE`).
    public var predicate: String?
    /// The line of the `<fetchedProperty>` element.
    public var line: Int

    /// Creates a fetched property.
    public init(name: String, entity: String, predicate: String?, line: Int = 0) {
        self.name = name
        self.entity = entity
        self.predicate = predicate
        self.line = line
    }
}
