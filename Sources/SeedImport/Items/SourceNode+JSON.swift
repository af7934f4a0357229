import SeedStore

extension SourceNode {
    /// The value as compact JSON text, as SwiftData stores an array inside a Codable struct (a
    /// Binary element holding `["Coffee"]`): strings escaped as JSON requires, numbers as
    /// written, object keys in the order given. A date or data value, or a number that is no
    /// JSON number, is refused at its place.
    func jsonText(_ syntax: SourceSyntax) throws(InputError) -> [UInt8] {
        var text: [UInt8] = []
        try appendJSON(to: &text, syntax)
        return text
    }

    private func appendJSON(to text: inout [UInt8], _ syntax: SourceSyntax) throws(InputError) {
        switch self {
        case .scalar(let value, let kind, let location):
            switch kind {
            case .string, .key: Self.appendString(value, to: &text)
            case .true: text += Array("true".utf8)
            case .false: text += Array("false".utf8)
            case .null: text += Array("null".utf8)
            case .integer, .real, .number:
                guard Self.isJSONNumber(value) else { throw InputError("'\(value)' is no JSON number", at: location) }
                text += Array(value.utf8)
            case .date, .data:
                throw InputError("\(kindName(syntax)) has no JSON form: an array inside a struct holds strings, numbers, Booleans, arrays and objects", at: location)
            }
        case .array(let items, _):
            text.append(UInt8(ascii: "["))
            for (index, item) in items.enumerated() {
                if index > 0 { text.append(UInt8(ascii: ",")) }
                try item.appendJSON(to: &text, syntax)
            }
            text.append(UInt8(ascii: "]"))
        case .dictionary(let entries, _):
            text.append(UInt8(ascii: "{"))
            for (index, entry) in entries.enumerated() {
                if index > 0 { text.append(UInt8(ascii: ",")) }
                Self.appendString(entry.key, to: &text)
                text.append(UInt8(ascii: ":"))
                try entry.value.appendJSON(to: &text, syntax)
            }
            text.append(UInt8(ascii: "}"))
        }
    }

    /// A JSON string: `"` and `\` escaped, control characters as `\n`, `\t`, … or `\u00XX`.
    private static func appendString(_ value: String, to text: inout [UInt8]) {
        text.append(UInt8(ascii: "\""))
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "\""): text += [UInt8(ascii: "\\"), UInt8(ascii: "\"")]
            case UInt8(ascii: "\\"): text += [UInt8(ascii: "\\"), UInt8(ascii: "\\")]
            case 0x0A: text += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
            case 0x0D: text += [UInt8(ascii: "\\"), UInt8(ascii: "r")]
            case 0x09: text += [UInt8(ascii: "\\"), UInt8(ascii: "t")]
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                text += Array("\\u00".utf8) + [hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
            default: text.append(byte)
            }
        }
        text.append(UInt8(ascii: "\""))
    }

    /// RFC 8259's number: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
    static func isJSONNumber(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        var index = 0
        func isDigit(_ at: Int) -> Bool { at < bytes.count && bytes[at] >= UInt8(ascii: "0") && bytes[at] <= UInt8(ascii: "9") }
        func skipDigits() -> Int {
            let start = index
            while isDigit(index) { index += 1 }
            return index - start
        }
        if index < bytes.count && bytes[index] == UInt8(ascii: "-") { index += 1 }
        if index < bytes.count && bytes[index] == UInt8(ascii: "0") {
            index += 1
        } else if skipDigits() == 0 {
            return false
        }
        if index < bytes.count && bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard skipDigits() > 0 else { return false }
        }
        if index < bytes.count && (bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E")) {
            index += 1
            if index < bytes.count && (bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-")) { index += 1 }
            guard skipDigits() > 0 else { return false }
        }
        return index == bytes.count
    }
}
