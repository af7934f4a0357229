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
