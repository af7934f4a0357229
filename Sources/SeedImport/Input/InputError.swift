import SeedStore
/// Source data that cannot be imported, with the place and, when known, the entity and attribute.
public struct InputError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Where the problem is.
    public var location: InputLocation
    /// What is wrong.
    public var message: String

    /// Creates an error. The message is one line of at most about 500 characters whatever the
    /// input it quotes: control characters are escaped (`\u{1b}`), and a longer message keeps its
    /// first and last 240 characters (what is wrong is said at either end).
    public init(_ message: String, at location: InputLocation) {
        self.location = location
        self.message = Self.bounded(message)
    }

    static func bounded(_ message: String) -> String {
        let text = OneLineText.escaped(message, backslashes: false)
        guard text.count > 500 else { return text }
        return "\(text.prefix(240))…(\(text.count - 480) characters left out)…\(text.suffix(240))"
    }

    /// `file:line:column: message`.
    public var description: String { "\(location): \(message)" }
}
