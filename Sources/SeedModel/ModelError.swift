/// A model that cannot be read or makes no sense, with the file and line to look at.
public struct ModelError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The model file (or folder) concerned.
    public var file: String
    /// The 1-based line in `file`, when known.
    public var line: Int?
    /// The 1-based column in `line`, when known (a Swift source's declaration).
    public var column: Int?
    /// What is wrong.
    public var message: String

    /// Creates an error.
    public init(file: String, line: Int?, column: Int? = nil, message: String) {
        self.file = file
        self.line = line
        self.column = column
        self.message = message
    }

    /// `file:line:column: message`, as far as the place is known.
    public var description: String {
        guard let line, line > 0 else { return "\(file): \(message)" }
        guard let column, column > 0 else { return "\(file):\(line): \(message)" }
        return "\(file):\(line):\(column): \(message)"
    }
}
