import Foundation
import SeedStore

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

    /// `file:line:column`; `file:line` when the column is unknown (a model's line), and `file`
    /// alone for what concerns the whole file (never a line or column 0).
    public var description: String {
        line < 1 ? file : column < 1 ? "\(file):\(line)" : "\(file):\(line):\(column)"
    }
}
