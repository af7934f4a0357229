/// A model feature whose Core Data store layout is not known, so no store is written for it.
public struct LayoutError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The model file.
    public var file: String
    /// The line of the element concerned.
    public var line: Int
    /// What is not supported, and why.
    public var message: String

    /// `file:line: message`.
    public var description: String {
        line > 0 ? "\(file):\(line): \(message)" : "\(file): \(message)"
    }
}
