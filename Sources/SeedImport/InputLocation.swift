/// A place in an input file: `file:line:column`, 1-based.
public struct InputLocation: Sendable, Hashable, CustomStringConvertible {
    /// The input file.
    public var file: String
    /// The line, 1-based (0 when unknown).
    public var line: Int
    /// The column, 1-based (0 when unknown).
    public var column: Int

    /// Creates a location.
    public init(file: String, line: Int, column: Int) {
        self.file = file
        self.line = line
        self.column = column
    }

    /// `file:line:column`.
    public var description: String { "\(file):\(line):\(column)" }
}

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
