import ArgumentParser
import Foundation
import SeedModel
import SeedStore

/// A stored value shown by its attribute type: dates in ISO 8601, booleans, numbers, text.
enum JSONValue: Encodable {
    case null, bool(Bool), integer(Int64), real(Double), text(String)

    init(_ value: SQLValue, _ type: AttributeType?) {
        switch (value, type) {
        case (.null, _): self = .null
        case (.integer(let number), .boolean?): self = .bool(number != 0)
        case (.integer(let number), .date?): self = .text(Self.iso8601(Double(number)))
        case (.real(let number), .date?): self = .text(Self.iso8601(number))
        case (.integer(let number), _): self = .integer(number)
        case (.real(let number), _): self = .real(number)
        case (.text(let text), _): self = .text(text)
        case (.blob(let bytes), .uuid?) where bytes.count == 16: self = .text(StoredUUID.string(bytes))
        case (.blob(let bytes), _): self = .text(Data(bytes).base64EncodedString())
        }
    }

    /// A stored value shown as `dump` writes it: by its type, and a SwiftData array (a `[String]`
    /// or an array inside a struct) as its JSON text rather than the base64 of its bytes.
    init(_ value: SQLValue, attribute: AttributeDescription?) {
        if let form = attribute?.declaredValue, form.isArray, case .blob(let bytes) = value,
           let json = SwiftDataArrayText.text(of: bytes, as: form) {
            self = .text(json)
        } else {
            self.init(value, attribute?.type)
        }
    }

    /// Seconds since 2001-01-01 UTC as `2012-06-08T16:00:00Z` (fractions when there are some).
    static func iso8601(_ seconds: Double) -> String {
        DateText.iso8601(secondsSinceReferenceDate: seconds)
    }

    /// The value as one word of a text line.
    var text: String {
        switch self {
        case .null: "nil"
        case .bool(let flag): flag ? "true" : "false"
        case .integer(let number): String(number)
        case .real(let number): String(number)
        case .text(let text): TerminalText.quoted(text)
        }
    }

    func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let flag): try container.encode(flag)
        case .integer(let number): try container.encode(number)
        case .real(let number): try container.encode(number)
        case .text(let text): try container.encode(text)
        }
    }
}
