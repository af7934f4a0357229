/// Text that came from an input or a store, made safe for one line of output: control
/// characters, line separators and backslashes written as escapes (`\\n`, `\\u{1b}`), so that it
/// cannot move a terminal's cursor or pass for another line. Shared by import errors and the
/// command line's output.
package enum OneLineText {
    /// `text` with every character a terminal would act on written as an escape; backslashes
    /// doubled unless `backslashes` is false (a message's own `\\n` is no escape to undo).
    package static func escaped(_ text: String, backslashes: Bool = true) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\" where backslashes: result += "\\\\"
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
}
