/// A date format such as `MM/dd/yyyy` or ISO 8601, parsed straight from bytes into Core
/// Data's representation: seconds since 2001-01-01T00:00:00Z.
///
/// Written by hand because Foundation's `DateFormatter` costs about 33 µs per date on Linux.
/// Pattern letters (Unicode TR35 subset): `yyyy`, `yy`, `MM`, `M`, `dd`, `d`, `HH`, `H`,
/// `mm`, `ss`, `S…` (fraction), `XXX`/`XX`/`X`/`Z`/`ZZZZZ` (zone); `'…'` quotes literals.
public struct DatePattern: Sendable, Hashable, CustomStringConvertible {
    enum Field: Sendable, Hashable {
        case year(digits: Int)
        case month(exact: Bool)
        case day(exact: Bool)
        case hour(exact: Bool)
        case minute
        case second
        case fraction
        case zone
        case literal(UInt8)
    }

    let fields: [Field]
    /// The pattern as given, or `ISO 8601`.
    public let description: String
    let isISO8601: Bool

    /// ISO 8601: `yyyy-MM-dd`, optionally `THH:mm[:ss[.fff]]` and a zone (`Z`, `±HH:MM`, `±HHMM`).
    public static let iso8601 = DatePattern(fields: [], description: "ISO 8601", isISO8601: true)

    private init(fields: [Field], description: String, isISO8601: Bool) {
        self.fields = fields
        self.description = description
        self.isISO8601 = isISO8601
    }

    /// What is wrong with a pattern.
    public struct PatternError: Error, Sendable, CustomStringConvertible {
        /// Why.
        public var description: String
    }

    /// Compiles a pattern such as `dd.MM.yyyy HH:mm`.
    public init(_ pattern: String) throws(PatternError) {
        var fields: [Field] = []
        let letters = Array(pattern.utf8)
        var index = 0
        while index < letters.count {
            let letter = letters[index]
            if letter == UInt8(ascii: "'") {
                var end = index + 1
                while end < letters.count && letters[end] != UInt8(ascii: "'") { end += 1 }
                guard end < letters.count else { throw PatternError(description: "unterminated quote in date pattern '\(pattern)'") }
                if end == index + 1 { fields.append(.literal(letter)) }  // '' is a quote
                fields += letters[(index + 1)..<end].map { .literal($0) }
                index = end + 1
                continue
            }
            var run = 1
            while index + run < letters.count && letters[index + run] == letter { run += 1 }
            switch Character(Unicode.Scalar(letter)) {
            case "y" where run == 4 || run == 2: fields.append(.year(digits: run))
            case "M" where run <= 2: fields.append(.month(exact: run == 2))
            case "d" where run <= 2: fields.append(.day(exact: run == 2))
            case "H" where run <= 2: fields.append(.hour(exact: run == 2))
            case "m" where run == 2: fields.append(.minute)
            case "s" where run == 2: fields.append(.second)
            case "S": fields.append(.fraction)
            case "X", "Z", "x": fields.append(.zone)
            case let character where character.isLetter:
                throw PatternError(description: "unsupported date pattern field '\(String(repeating: character, count: run))' in '\(pattern)'")
            default:
                fields += Array(repeating: .literal(letter), count: run)
            }
            index += run
        }
        self.init(fields: fields, description: pattern, isISO8601: false)
    }

    /// Parses `bytes`; a date without a zone is taken at `defaultOffset` seconds east of UTC.
    /// Returns nil when the text does not match the pattern or names an impossible date.
    package func secondsSinceReferenceDate(_ bytes: UnsafeBufferPointer<UInt8>, defaultOffset: Int = 0) -> Double? {
        var scanner = DateScanner(bytes: bytes)
        var parts = DateParts()
        if isISO8601 {
            guard scanner.scanISO8601(into: &parts) else { return nil }
        } else {
            for field in fields {
                guard scanner.scan(field, into: &parts) else { return nil }
            }
            guard scanner.atEnd else { return nil }
        }
        return parts.secondsSinceReferenceDate(defaultOffset: defaultOffset)
    }

    /// Parses a string (convenience for tests and non-hot paths).
    package func secondsSinceReferenceDate(_ text: String, defaultOffset: Int = 0) -> Double? {
        var text = text
        return text.withUTF8 { secondsSinceReferenceDate($0, defaultOffset: defaultOffset) }
    }
}
