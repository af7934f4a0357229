/// Text from a store (names in its metadata, stored values) on its way to a terminal or to
/// output read one line per finding: control characters, line separators and backslashes
/// escaped (`\n`, `\u{1b}`), so that what a store holds cannot move the cursor, clear the
/// screen or pass for another line.
enum TerminalText {
    /// `text` with every character a terminal would act on written as an escape.
    static func escaped(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar.value == 0x2028 || scalar.value == 0x2029:
                result += "\\u{\(String(scalar.value, radix: 16))}"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// `text` in double quotes, escaped, a quote inside as `\"`.
    static func quoted(_ text: String) -> String {
        "\"" + escaped(text).replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }
}

/// Prints one line of text that may hold what a store holds, escaped (`TerminalText`).
func printLine(_ text: String) {
    print(TerminalText.escaped(text))
}
