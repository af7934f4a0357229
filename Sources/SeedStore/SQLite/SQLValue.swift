/// One SQLite value, as stored.
public enum SQLValue: Sendable, Hashable, CustomStringConvertible {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])

    /// The integer, when this is an integer.
    public var integer: Int64? {
        if case .integer(let value) = self { return value }
        return nil
    }

    /// The text, when this is text.
    public var text: String? {
        if case .text(let value) = self { return value }
        return nil
    }

    /// The bytes, when this is a blob.
    public var blob: [UInt8]? {
        if case .blob(let value) = self { return value }
        return nil
    }

    /// The bytes of text (UTF-8) or of a blob; 0 for the others.
    package var payloadByteCount: Int {
        switch self {
        case .text(let text): text.utf8.count
        case .blob(let bytes): bytes.count
        default: 0
        }
    }

    /// The value for one line of a message about data: text quoted, escaped (`\u{1B}`) and cut
    /// at 40 characters, a blob by its size.
    package var excerpt: String {
        guard case .text(let text) = self else { return description }
        return String(text.prefix(40)).debugDescription + (text.count > 40 ? "…" : "")
    }

    /// A short rendering for messages.
    public var description: String {
        switch self {
        case .null: "NULL"
        case .integer(let value): String(value)
        case .real(let value): String(value)
        case .text(let value): "'\(value)'"
        case .blob(let value): "<\(value.count) bytes>"
        }
    }
}
