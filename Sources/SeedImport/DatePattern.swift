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
    private let isISO8601: Bool

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

/// The fields of one date as read.
struct DateParts {
    var year = 1970
    var month = 1
    var day = 1
    var hour = 0
    var minute = 0
    var second = 0
    var fraction = 0.0
    var offset: Int?

    /// Seconds since 2001-01-01T00:00:00Z, or nil for an impossible date.
    func secondsSinceReferenceDate(defaultOffset: Int) -> Double? {
        guard (1...12).contains(month), (1...Self.daysIn(month: month, year: year)).contains(day),
              (0...23).contains(hour), (0...59).contains(minute), (0...59).contains(second)
        else { return nil }
        // Days since 1970-01-01 in the proleptic Gregorian calendar (H. Hinnant's days_from_civil).
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        let days = era * 146_097 + dayOfEra - 719_468
        let seconds = days * 86_400 + hour * 3_600 + minute * 60 + second - (offset ?? defaultOffset)
        return Double(seconds - 978_307_200) + fraction
    }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }
}

/// Reads date fields from bytes, left to right.
struct DateScanner {
    let bytes: UnsafeBufferPointer<UInt8>
    var position = 0

    var atEnd: Bool { position == bytes.count }

    private func peek() -> UInt8? { position < bytes.count ? bytes[position] : nil }

    /// Exactly `count` digits, or (when `upTo`) one to `count` digits.
    mutating func digits(_ count: Int, upTo: Bool = false) -> Int? {
        var value = 0
        var read = 0
        while read < count, let byte = peek(), byte >= 48, byte <= 57 {
            value = value * 10 + Int(byte - 48)
            read += 1
            position += 1
        }
        return read == count || (upTo && read > 0) ? value : nil
    }

    mutating func literal(_ byte: UInt8) -> Bool {
        guard peek() == byte else { return false }
        position += 1
        return true
    }

    mutating func scan(_ field: DatePattern.Field, into parts: inout DateParts) -> Bool {
        switch field {
        case .year(let count):
            guard let value = digits(count) else { return false }
            parts.year = count == 2 ? 2000 + value : value
        case .month(let exact):
            guard let value = digits(2, upTo: !exact) else { return false }
            parts.month = value
        case .day(let exact):
            guard let value = digits(2, upTo: !exact) else { return false }
            parts.day = value
        case .hour(let exact):
            guard let value = digits(2, upTo: !exact) else { return false }
            parts.hour = value
        case .minute:
            guard let value = digits(2) else { return false }
            parts.minute = value
        case .second:
            guard let value = digits(2) else { return false }
            parts.second = value
        case .fraction:
            return scanFraction(into: &parts)
        case .zone:
            return scanZone(into: &parts)
        case .literal(let byte):
            return literal(byte)
        }
        return true
    }

    /// Digits after the decimal point (the point itself is a literal in patterns).
    mutating func scanFraction(into parts: inout DateParts) -> Bool {
        var scale = 0.1
        var value = 0.0
        var read = 0
        while let byte = peek(), byte >= 48, byte <= 57 {
            value += Double(byte - 48) * scale
            scale /= 10
            read += 1
            position += 1
        }
        parts.fraction = value
        return read > 0
    }

    /// `Z`, `±HH`, `±HHMM` or `±HH:MM`.
    mutating func scanZone(into parts: inout DateParts) -> Bool {
        if literal(UInt8(ascii: "Z")) {
            parts.offset = 0
            return true
        }
        let sign: Int
        if literal(UInt8(ascii: "+")) { sign = 1 } else if literal(UInt8(ascii: "-")) { sign = -1 } else { return false }
        guard let hours = digits(2), hours <= 23 else { return false }
        var minutes = 0
        if !atEnd {
            _ = literal(UInt8(ascii: ":"))
            guard let value = digits(2), value <= 59 else { return false }
            minutes = value
        }
        parts.offset = sign * (hours * 3_600 + minutes * 60)
        return true
    }

    /// `yyyy-MM-dd[THH:mm[:ss[.f…]]][zone]`; a space may stand for `T`.
    mutating func scanISO8601(into parts: inout DateParts) -> Bool {
        guard let year = digits(4), literal(UInt8(ascii: "-")), let month = digits(2),
              literal(UInt8(ascii: "-")), let day = digits(2) else { return false }
        parts.year = year
        parts.month = month
        parts.day = day
        if atEnd { return true }
        guard literal(UInt8(ascii: "T")) || literal(UInt8(ascii: " ")),
              let hour = digits(2), literal(UInt8(ascii: ":")), let minute = digits(2) else { return false }
        parts.hour = hour
        parts.minute = minute
        if literal(UInt8(ascii: ":")) {
            guard let second = digits(2) else { return false }
            parts.second = second
            if literal(UInt8(ascii: ".")) || literal(UInt8(ascii: ",")) {
                guard scanFraction(into: &parts) else { return false }
            }
        }
        if atEnd { return true }
        return scanZone(into: &parts) && atEnd
    }
}
