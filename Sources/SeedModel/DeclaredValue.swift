/// The Swift value a SwiftData attribute or Composite element holds, where its Core Data type
/// alone does not say how source data gives it or which values the app can read back.
package enum DeclaredValue: Sendable, Hashable, Codable {
    /// An enum's cases in declaration order. With raw values (`enum Ice: String`), a Composite
    /// of one element holding the raw value; without (`enum Weather: Codable`), a Composite of
    /// one String element per case, the set one holding the case's name.
    case enumeration([EnumCase])
    /// An array of values inside a Codable struct: a Binary element holding the array's JSON
    /// text, as SwiftData's encoder writes it (`["Coffee"]`).
    case jsonArray
    /// A `[String]` property: a Transformable holding `NSSecureUnarchiveFromData`'s keyed archive
    /// of the strings (`StringArrayArchive`).
    case stringArray

    /// One case of an enum.
    package struct EnumCase: Sendable, Hashable, Codable {
        /// The case's name (`rocks`).
        package var name: String
        /// Its raw value as source text reads (`Rocks`, `2`); nil for an enum without raw values.
        package var rawValue: String?

        /// A case named `name` with `rawValue`.
        package init(name: String, rawValue: String? = nil) {
            self.name = name
            self.rawValue = rawValue
        }
    }

    private enum CodingKeys: String, CodingKey { case cases }

    /// `{"cases": [...]}` for an enum, `"jsonArray"` or `"stringArray"` for an array (what a
    /// seed's model carries).
    package func encode(to encoder: any Encoder) throws {
        switch self {
        case .enumeration(let cases):
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(cases, forKey: .cases)
        case .jsonArray, .stringArray:
            var container = encoder.singleValueContainer()
            try container.encode(self == .jsonArray ? "jsonArray" : "stringArray")
        }
    }

    /// Reads what `encode(to:)` writes.
    package init(from decoder: any Decoder) throws {
        if let text = try? decoder.singleValueContainer().decode(String.self) {
            switch text {
            case "jsonArray": self = .jsonArray
            case "stringArray": self = .stringArray
            default: throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "'\(text)' is no declared value"))
            }
        } else {
            self = .enumeration(try decoder.container(keyedBy: CodingKeys.self).decode([EnumCase].self, forKey: .cases))
        }
    }

    /// True for an array given and dumped as JSON text (`jsonArray`, `stringArray`).
    package var isArray: Bool { self == .jsonArray || self == .stringArray }

    /// The enum's cases; nil for an array.
    package var cases: [EnumCase]? {
        if case .enumeration(let cases) = self { cases } else { nil }
    }
}
