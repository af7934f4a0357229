/// A change the model does not allow (unknown property, wrong type, deny rule, missing value).
public struct WriteError: Error, Sendable, CustomStringConvertible {
    /// What is wrong, naming the entity and property.
    public var description: String

    init(_ description: String) {
        self.description = description
    }
}
