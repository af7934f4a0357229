import SeedStore

/// Text from a store (names in its metadata, stored values) on its way to a terminal or to
/// output read one line per finding, escaped (`OneLineText`).
enum TerminalText {
    /// `text` in double quotes, escaped, a quote inside as `\"`.
    static func quoted(_ text: String) -> String {
        "\"" + OneLineText.escaped(text).replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }
}

/// Prints one line of text that may hold what a store holds, escaped (`OneLineText`).
func printLine(_ text: String) {
    print(OneLineText.escaped(text))
}
