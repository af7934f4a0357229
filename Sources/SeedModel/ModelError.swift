/// A model that cannot be read or makes no sense, with the file and line to look at.
public struct ModelError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The model file (or folder) concerned.
    public var file: String
    /// The 1-based line in `file`, when known.
    public var line: Int?
    /// What is wrong.
    public var message: String

    /// Creates an error.
    public init(file: String, line: Int?, message: String) {
        self.file = file
        self.line = line
        self.message = message
    }

    /// `file:line: message`.
    public var description: String {
        if let line, line > 0 { return "\(file):\(line): \(message)" }
        return "\(file): \(message)"
    }
}
