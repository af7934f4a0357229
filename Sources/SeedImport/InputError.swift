/// Source data that cannot be imported, with the place and, when known, the entity and attribute.
public struct InputError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Where the problem is.
    public var location: InputLocation
    /// What is wrong.
    public var message: String

    /// Creates an error.
    public init(_ message: String, at location: InputLocation) {
        self.location = location
        self.message = message
    }

    /// `file:line:column: message`.
    public var description: String { "\(location): \(message)" }
}
