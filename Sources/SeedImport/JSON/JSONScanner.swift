/// The tokens of a JSON text (RFC 8259), pulled one at a time from a `SourceBuffer`: strings
/// come with their escapes decoded and checked as UTF-8, numbers as their text (checked against
/// JSON's grammar, never converted here, so an integer reaches its attribute exactly).
struct JSONScanner {
    /// What starts at the scanner's place: a container (its bracket read) or a whole scalar.
    enum Value {
        case object, array, string, integer, real, `true`, `false`, null
    }

    var input: SourceBuffer
    /// The last string's bytes (escapes decoded), or the last number's text.
    private(set) var text: [UInt8] = []
    /// Where the last value, or the last member name, starts.
    private(set) var line = 0
    private(set) var column = 0

    init(input: SourceBuffer) {
        self.input = input
    }

    var location: InputLocation { InputLocation(file: input.path, line: line, column: column) }

    private func failure(_ message: String) -> InputError {
        InputError(message, at: input.location(at: input.position))
    }

    // MARK: - Structure

    /// Skips white space; the next byte, not consumed; nil at the end of the file.
    mutating func nextByte() throws(InputError) -> UInt8? {
        while true {
            let bytes = input.bytes, end = input.end
            var index = input.position
            while index < end {
                switch bytes[index] {
                case 0x20, 0x09, 0x0D: index += 1
                case 0x0A:
                    input.newline(at: index)
                    index += 1
                default:
                    input.position = index
                    return bytes[index]
                }
            }
            input.position = index
            guard try input.refill(keeping: index) else { return nil }
        }
    }

    /// Reads the value that starts next: a container's opening bracket, or a whole scalar.
    mutating func value() throws(InputError) -> Value {
        guard let byte = try nextByte() else { throw failure("the document ends where a value should be") }
        line = input.line
        column = input.column(at: input.position)
        switch byte {
        case UInt8(ascii: "{"):
            input.position += 1
            return .object
        case UInt8(ascii: "["):
            input.position += 1
            return .array
        case UInt8(ascii: "\""):
            try readString()
            return .string
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return try readNumber() ? .integer : .real
        case UInt8(ascii: "t"):
            try literal("true")
            return .true
        case UInt8(ascii: "f"):
            try literal("false")
            return .false
        case UInt8(ascii: "n"):
            try literal("null")
            return .null
        default:
            throw failure("\(Self.describe(byte)) where a value should be")
        }
    }

    /// Inside an object (after `{` or a member): whether a member follows. When it does, its
    /// name is read (into `text`, its place in `line` and `column`) and so is the `:` after it.
    mutating func nextMember(_ first: inout Bool) throws(InputError) -> Bool {
        guard var byte = try nextByte() else { throw failure("the document ends inside an object") }
        if byte == UInt8(ascii: "}") {
            input.position += 1
            return false
        }
        if !first {
            guard byte == UInt8(ascii: ",") else { throw failure("\(Self.describe(byte)) where ',' or '}' should be") }
            input.position += 1
            guard let next = try nextByte() else { throw failure("the document ends inside an object") }
            byte = next
        }
        first = false
        guard byte == UInt8(ascii: "\"") else { throw failure("\(Self.describe(byte)) where a member name (a string) should be") }
        line = input.line
        column = input.column(at: input.position)
        try readString()
        guard try nextByte() == UInt8(ascii: ":") else { throw failure("a member name without its ':'") }
        input.position += 1
        return true
    }

    /// Inside an array (after `[` or an item): whether an item follows (then `value()` reads it).
    mutating func nextItem(_ first: inout Bool) throws(InputError) -> Bool {
        guard let byte = try nextByte() else { throw failure("the document ends inside an array") }
        if byte == UInt8(ascii: "]") {
            input.position += 1
            return false
        }
        if !first {
            guard byte == UInt8(ascii: ",") else { throw failure("\(Self.describe(byte)) where ',' or ']' should be") }
            input.position += 1
        }
        first = false
        return true
    }

    /// A byte as a message shows it.
    static func describe(_ byte: UInt8) -> String {
        byte >= 0x21 && byte < 0x7F ? "'\(Character(Unicode.Scalar(byte)))'" : "the byte 0x\(String(byte, radix: 16, uppercase: true))"
    }

    // MARK: - Scalars

    private mutating func literal(_ word: StaticString) throws(InputError) {
        let count = word.utf8CodeUnitCount
        while input.end - input.position < count, try input.refill(keeping: input.position) {}
        let matches = input.end - input.position >= count
            && (0..<count).allSatisfy { input.bytes[input.position + $0] == word.utf8Start[$0] }
        guard matches else { throw failure("not a JSON value (true, false and null are lower case; strings are quoted)") }
        input.position += count
    }

    /// A string from its opening quote: the bytes between the quotes into `text`, escapes decoded.
    private mutating func readString() throws(InputError) {
        text.removeAll(keepingCapacity: true)
        let (startLine, startColumn) = (input.line, input.column(at: input.position))
        input.position += 1
        var run = input.position
        var ascii = true
        while true {
            // The plain run: up to a quote, a backslash or a control character (local copies
            // of the buffer's bounds keep this loop in registers).
            let bytes = input.bytes, end = input.end
            var index = input.position
            while index < end {
                let byte = bytes[index]
                if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20 { break }
                if byte >= 0x80 { ascii = false }
                index += 1
            }
            input.position = index
            // A string may not hold more bytes than one value may: checked before they are kept.
            guard text.count + (index - run) <= SourceBuffer.maximumToken else {
                throw InputError("a string longer than \(SourceBuffer.maximumToken >> 20) MiB", at: InputLocation(file: input.path, line: startLine, column: startColumn))
            }
            if index == end {
                text.append(contentsOf: input.slice(from: run, to: index))
                guard try input.refill(keeping: input.position) else {
                    throw InputError("a string without its closing quote", at: InputLocation(file: input.path, line: startLine, column: startColumn))
                }
                run = input.position
                continue
            }
            let byte = bytes[index]
            text.append(contentsOf: input.slice(from: run, to: index))
            if byte == UInt8(ascii: "\"") {
                input.position += 1
                break
            }
            if byte == UInt8(ascii: "\\") {
                try readEscape()
                run = input.position
                continue
            }
            throw failure(byte == 0x0A ? "a line break inside a string (write it as \\n)" : "a control character inside a string (write it as an escape)")
        }
        if !ascii, String(validating: text, as: UTF8.self) == nil {
            throw InputError("a string that is not UTF-8", at: InputLocation(file: input.path, line: startLine, column: startColumn))
        }
    }

    /// One escape from its backslash, appended to `text` as UTF-8.
    private mutating func readEscape() throws(InputError) {
        while input.end - input.position < 12, try input.refill(keeping: input.position) {}
        guard input.end - input.position >= 2 else { throw failure("a string without its closing quote") }
        let letter = input.bytes[input.position + 1]
        let simple: UInt8? = switch letter {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): letter
        case UInt8(ascii: "b"): 0x08
        case UInt8(ascii: "f"): 0x0C
        case UInt8(ascii: "n"): 0x0A
        case UInt8(ascii: "r"): 0x0D
        case UInt8(ascii: "t"): 0x09
        default: nil
        }
        if let simple {
            text.append(simple)
            input.position += 2
            return
        }
        guard letter == UInt8(ascii: "u"), let high = hex(at: input.position + 2) else {
            throw failure("'\\\(Character(Unicode.Scalar(letter)))' is not a JSON escape")
        }
        var scalar = high
        var length = 6
        if (0xD800..<0xDC00).contains(high) {
            // A surrogate pair: the low half must follow as a second escape.
            guard input.end - input.position >= 12, input.bytes[input.position + 6] == UInt8(ascii: "\\"),
                  input.bytes[input.position + 7] == UInt8(ascii: "u"), let low = hex(at: input.position + 8),
                  (0xDC00..<0xE000).contains(low) else {
                throw failure("'\\u\(String(high, radix: 16, uppercase: true))' is half a surrogate pair without its other half")
            }
            scalar = 0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00)
            length = 12
        } else if (0xDC00..<0xE000).contains(high) {
            throw failure("'\\u\(String(high, radix: 16, uppercase: true))' is half a surrogate pair without its other half")
        }
        text.append(contentsOf: String(Character(Unicode.Scalar(scalar)!)).utf8)
        input.position += length
    }

    /// The four hex digits at `index` as a number; nil when they are not four hex digits.
    private func hex(at index: Int) -> UInt32? {
        guard input.end - index >= 4 else { return nil }
        var value: UInt32 = 0
        for offset in 0..<4 {
            let byte = input.bytes[index + offset]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: return nil
            }
            value = value << 4 | UInt32(digit)
        }
        return value
    }

    /// A number's text into `text`, checked against JSON's grammar; true when it is an integer
    /// (no fraction, no exponent).
    private mutating func readNumber() throws(InputError) -> Bool {
        text.removeAll(keepingCapacity: true)
        let start = input.location(at: input.position)
        while let byte = try input.peek(), Self.isNumberByte(byte) {
            text.append(byte)
            input.position += 1
            guard text.count <= 1024 else { throw InputError("a number of more than 1,024 characters", at: start) }
        }
        var index = 0
        func digits() -> Int {
            let first = index
            while index < text.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(text[index]) { index += 1 }
            return index - first
        }
        if text.first == UInt8(ascii: "-") { index += 1 }
        let leading = index < text.count && text[index] == UInt8(ascii: "0")
        var valid = digits() > 0 && (!leading || index == (text.first == UInt8(ascii: "-") ? 2 : 1))
        var integer = true
        if valid, index < text.count, text[index] == UInt8(ascii: ".") {
            index += 1
            integer = false
            valid = digits() > 0
        }
        if valid, index < text.count, text[index] == UInt8(ascii: "e") || text[index] == UInt8(ascii: "E") {
            index += 1
            integer = false
            if index < text.count, text[index] == UInt8(ascii: "+") || text[index] == UInt8(ascii: "-") { index += 1 }
            valid = digits() > 0
        }
        guard valid, index == text.count else {
            throw InputError("'\(String(decoding: text.prefix(80), as: UTF8.self))\(text.count > 80 ? "…" : "")' is not a JSON number", at: start)
        }
        return integer
    }

    private static func isNumberByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E"): true
        default: false
        }
    }
}
