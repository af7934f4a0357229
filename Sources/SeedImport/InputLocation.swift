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

    /// `file:line:column`.
    public var description: String { "\(file):\(line):\(column)" }
}

/// Source files are regular files: a directory is a mistake, and opening a FIFO or a device
/// would block or read without end.
enum InputFile {
    /// Throws unless `path` names a regular file (after symbolic links).
    static func requireRegularFile(_ path: String) throws(InputError) {
        let location = InputLocation(file: path, line: 0, column: 0)
        let kind = FileSystem.kind(of: path)
        if kind == .missing { throw InputError("no such readable file", at: location) }
        if let what = kind.notAFile { throw InputError("is \(what), not a source file", at: location) }
    }
}
