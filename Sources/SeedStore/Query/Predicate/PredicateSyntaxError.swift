/// A predicate string that does not parse, with the 1-based character position of the problem.
public struct PredicateSyntaxError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong.
    public var message: String
    /// 1-based character position in the predicate string.
    public var position: Int
    /// The predicate string.
    public var text: String
    /// True when the text is NSPredicate syntax that seedgen cannot run (`SUBQUERY`, functions,
    /// arithmetic, `MATCHES`, `@sum`, …), rather than text that is not a predicate at all.
    public var isUnsupportedFeature = false

    /// `at character 12 of 'name == ': expected a value`; a long text is shown around the position.
    public var description: String { "at character \(position) of '\(Self.excerpt(text, around: position))': \(message)" }

    /// At most about 100 characters of `text`, around the 1-based `position`.
    package static func excerpt(_ text: String, around position: Int) -> String {
        let characters = Array(text)
        guard characters.count > 100 else { return text }
        let start = max(0, min(position - 50, characters.count - 100))
        let end = min(characters.count, start + 100)
        return (start > 0 ? "…" : "") + String(characters[start..<end]) + (end < characters.count ? "…" : "")
    }
}
