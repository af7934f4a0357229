import Foundation
import SeedImport
import SeedModel
import SeedStore
import Testing

@Suite("Date patterns")
struct DatePatternTests {
    /// Foundation's answer, used as the reference in tests only (too slow for the hot path).
    static func reference(_ text: String, _ format: String, zone: String = "UTC") -> Double? {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: zone)
        formatter.dateFormat = format
        return formatter.date(from: text)?.timeIntervalSinceReferenceDate
    }

    @Test("seed 002's dates with the model's MM/dd/yyyy, equal to Foundation's")
    func seedDates() throws {
        let pattern = try DatePattern("MM/dd/yyyy")
        for text in ["01/16/2010", "02/01/2010", "03/05/2010"] {
            #expect(pattern.secondsSinceReferenceDate(text) == Self.reference(text, "MM/dd/yyyy"), "\(text)")
        }
        #expect(pattern.secondsSinceReferenceDate("01/16/2010") == 285_292_800)  // 3302 days after 2001-01-01
    }

    @Test("ISO 8601: date, time, seconds, fractions, zones")
    func iso8601() {
        let iso = DatePattern.iso8601
        #expect(iso.secondsSinceReferenceDate("2001-01-01T00:00:00Z") == 0)
        #expect(iso.secondsSinceReferenceDate("2001-01-01") == 0)
        #expect(iso.secondsSinceReferenceDate("2012-06-08T16:00:00Z") == Self.reference("2012-06-08 16:00:00", "yyyy-MM-dd HH:mm:ss"))
        #expect(iso.secondsSinceReferenceDate("2012-06-08T18:00:00+02:00") == iso.secondsSinceReferenceDate("2012-06-08T16:00:00Z"))
        #expect(iso.secondsSinceReferenceDate("2012-06-08T18:00:00+0200") == iso.secondsSinceReferenceDate("2012-06-08T16:00:00Z"))
        #expect(iso.secondsSinceReferenceDate("2012-06-08T13:00-03:00") == iso.secondsSinceReferenceDate("2012-06-08T16:00:00Z"))
        #expect(iso.secondsSinceReferenceDate("2001-01-01T00:00:01.25Z") == 1.25)
        #expect(iso.secondsSinceReferenceDate("1969-12-31T23:59:59Z") == -978_307_201)
        #expect(iso.secondsSinceReferenceDate("2012-06-08 16:00:00") == iso.secondsSinceReferenceDate("2012-06-08T16:00:00Z"))
        // A date without a zone takes the default offset.
        #expect(iso.secondsSinceReferenceDate("2012-06-08T18:00:00", defaultOffset: 7200) == iso.secondsSinceReferenceDate("2012-06-08T16:00:00Z"))
    }

    @Test("impossible or malformed dates are refused", arguments: [
        "2010-02-30", "2011-02-29", "2010-13-01", "2010-00-10", "2010-01-01T24:00:00Z", "2010-01-01T10:60:00Z",
        "2010-1-01", "20100101", "2010-01-01T10:00:00+25:00", "2010-01-01T10:00:00Zjunk", "", "yesterday",
    ])
    func refused(_ text: String) {
        #expect(DatePattern.iso8601.secondsSinceReferenceDate(text) == nil)
    }

    @Test("patterns: literals, quotes, short fields, fractions and zones; 1000 random dates agree with Foundation")
    func patterns() throws {
        #expect(try DatePattern("dd.MM.yyyy HH:mm").secondsSinceReferenceDate("16.01.2010 20:45") == Self.reference("16.01.2010 20:45", "dd.MM.yyyy HH:mm"))
        #expect(try DatePattern("yyyy-MM-dd'T'HH:mm:ssXXX").secondsSinceReferenceDate("2012-07-01T20:45:00+02:00") == Self.reference("2012-07-01T18:45:00", "yyyy-MM-dd'T'HH:mm:ss"))
        #expect(try DatePattern("d/M/yy").secondsSinceReferenceDate("5/3/10") == Self.reference("2010-03-05", "yyyy-MM-dd"))
        #expect(try DatePattern("yyyy-MM-dd HH:mm:ss.SSS").secondsSinceReferenceDate("2001-01-01 00:00:00.500") == 0.5)
        #expect(try DatePattern("MM/dd/yyyy").secondsSinceReferenceDate("16/01/2010") == nil)
        #expect(try DatePattern("MM/dd/yyyy").secondsSinceReferenceDate("01/16/2010 ") == nil)
        #expect(throws: DatePattern.PatternError.self) { try DatePattern("EEE, dd MMM yyyy") }
        #expect(throws: DatePattern.PatternError.self) { try DatePattern("yyyy-MM-dd'T") }

        var generator = SystemRandomNumberGenerator()
        let pattern = try DatePattern("yyyy-MM-dd HH:mm:ss")
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss"
        for _ in 0..<1000 {
            let date = Date(timeIntervalSinceReferenceDate: Double(Int64.random(in: -3_000_000_000...3_000_000_000, using: &generator)))
            let text = formatter.string(from: date)
            #expect(pattern.secondsSinceReferenceDate(text) == date.timeIntervalSinceReferenceDate, "\(text)")
        }
    }
}

@Suite("Dates written back (dump)")
struct DateTextTests {
    /// Foundation's ISO 8601 text of `seconds`, to the millisecond, in UTC.
    static func foundation(_ seconds: Double) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: Date(timeIntervalSinceReferenceDate: seconds))
    }

    @Test("every whole second and millisecond of years 1 to 9999 is written as ISO 8601 that reads back to the same bits, as Foundation writes it; any double reads back exactly or gets no text")
    func exactISO8601() throws {
        var generator = SystemRandomNumberGenerator()
        for round in 0..<20_000 {
            let whole = Double(Int64.random(in: -63_000_000_000...252_000_000_000, using: &generator))
            let seconds = round % 2 == 0 ? whole : whole + Double(Int.random(in: 0..<1000, using: &generator)) / 1000
            let text = try #require(DatePattern.iso8601.exactText(secondsSinceReferenceDate: seconds), "\(seconds)")
            #expect(DatePattern.iso8601.secondsSinceReferenceDate(text)?.bitPattern == seconds.bitPattern, "\(text)")
            if (1_000_000_000...2_000_000_000).contains(seconds) {  // Foundation's calendar agrees for these years
                // Foundation always writes three fraction digits; ours are the fewest that do.
                let stem = text.dropLast().split(separator: ".", maxSplits: 1)
                let millis = stem.count == 2 ? stem[1].padding(toLength: 3, withPad: "0", startingAt: 0) : "000"
                #expect("\(stem[0]).\(millis)Z" == Self.foundation(seconds), "\(text) \(Self.foundation(seconds))")
            }
            let any = Double.random(in: -1e11...1e11, using: &generator)
            if let text = DatePattern.iso8601.exactText(secondsSinceReferenceDate: any) {
                #expect(DatePattern.iso8601.secondsSinceReferenceDate(text)?.bitPattern == any.bitPattern, "\(text)")
            }
        }
        #expect(DatePattern.iso8601.exactText(secondsSinceReferenceDate: 0) == "2001-01-01T00:00:00Z")
        #expect(DatePattern.iso8601.exactText(secondsSinceReferenceDate: -0.25) == "2000-12-31T23:59:59.75Z")
        #expect(DatePattern.iso8601.exactText(secondsSinceReferenceDate: -63_113_904_000) == "0001-01-01T00:00:00Z")
        #expect(DatePattern.iso8601.exactText(secondsSinceReferenceDate: -63_113_904_001) == nil, "year 0 is not written")
        #expect(DatePattern.iso8601.exactText(secondsSinceReferenceDate: .nan) == nil)
        #expect(DatePattern.iso8601.exactText(secondsSinceReferenceDate: 8.64e15) == nil)
    }

    /// Before, the fraction was rounded to a double and then added to the whole seconds:
    /// rounding twice, "2000-12-31T23:59:59.75Z" was read as -0.2499999999999999.
    @Test("a fraction of a second is read to the double nearest the instant written, before 2001 too, with any number of digits")
    func fractionsRoundOnce() throws {
        #expect(DatePattern.iso8601.secondsSinceReferenceDate("2000-12-31T23:59:59.75Z")?.bitPattern == (-0.25).bitPattern)
        #expect(try DatePattern("yyyy-MM-dd HH:mm:ss.SSS").secondsSinceReferenceDate("2000-12-31 23:59:59.750")?.bitPattern == (-0.25).bitPattern)
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<20_000 {
            // An instant a double holds exactly: whole seconds and a multiple of 2^-j.
            let whole = Int64.random(in: -63_000_000_000...252_000_000_000, using: &generator)
            let power = Int.random(in: 1...10, using: &generator)
            let numerator = Int.random(in: 0..<(1 << power), using: &generator)
            let instant = Double(whole) + Double(numerator) / Double(1 << power)
            let text = try #require(DatePattern.iso8601.exactText(secondsSinceReferenceDate: Double(whole)))
            var fraction = String(Double(numerator) / Double(1 << power)).dropFirst(2)  // "0.xyz" -> "xyz", exact for these
            if fraction.contains("e") { continue }
            fraction += String(repeating: "0", count: Int.random(in: 0...3, using: &generator))
            let read = DatePattern.iso8601.secondsSinceReferenceDate(text.dropLast() + "." + fraction + "Z")
            #expect(read?.bitPattern == instant.bitPattern, "\(text) .\(fraction)")
            // Any digits after 2001: the correctly rounded reading of the decimal seconds.
            let positive = Int64.random(in: 0...252_000_000_000, using: &generator)
            let digits = String((0..<Int.random(in: 1...25, using: &generator)).map { _ in "0123456789".randomElement(using: &generator)! })
            let stem = try #require(DatePattern.iso8601.exactText(secondsSinceReferenceDate: Double(positive)))
            #expect(DatePattern.iso8601.secondsSinceReferenceDate(stem.dropLast() + "." + digits + "Z")?.bitPattern == Double("\(positive).\(digits)")!.bitPattern, "\(stem) .\(digits)")
        }
    }

    /// Before, whole seconds × 10^15 plus the fraction's digits was summed before its size was
    /// checked: this date trapped on Int64 overflow (found reading the change again).
    @Test("fifteen fraction digits on a second whose scaled value nears Int64's end: read, not a crash")
    func longFractionsDoNotOverflow() throws {
        let text = "2001-01-01T02:33:43.999999999999999Z"
        #expect(DatePattern.iso8601.secondsSinceReferenceDate(text)?.bitPattern == Double("9223.999999999999999")!.bitPattern)
        let converter = try ValueConverterTests.converter(.date)
        #expect(try converter.convert(text) == .real(Double("9223.999999999999999")!))
    }

    @Test("a date in the attribute's own pattern where that pattern reads it back exactly, else no text")
    func ownPattern() throws {
        let day = try DatePattern("MM/dd/yyyy")
        #expect(day.exactText(secondsSinceReferenceDate: 285_292_800) == "01/16/2010")
        #expect(day.exactText(secondsSinceReferenceDate: 285_292_801) == nil, "a time the pattern cannot hold")
        let short = try DatePattern("d/M/yy")
        #expect(short.exactText(secondsSinceReferenceDate: 289_440_000) == "5/3/10")
        #expect(short.exactText(secondsSinceReferenceDate: -978_307_200) == nil, "1970 in a two-digit year would read as 2070")
        let fraction = try DatePattern("yyyy-MM-dd HH:mm:ss.SSSXXX")
        #expect(fraction.exactText(secondsSinceReferenceDate: 0.5) == "2001-01-01 00:00:00.5Z")
        #expect(fraction.exactText(secondsSinceReferenceDate: 7) == "2001-01-01 00:00:07.0Z")
    }
}

@Suite("Value conversion")
struct ValueConverterTests {
    static func converter(_ type: AttributeType, userInfo: [String: String] = [:]) throws -> ValueConverter {
        try ValueConverter(attribute: AttributeDescription(name: "a", type: type, userInfo: userInfo))
    }

    @Test("values convert by attribute type")
    func conversions() throws {
        #expect(try Self.converter(.integer16).convert(" 32767 ") == .integer(32767))
        #expect(try Self.converter(.integer16).convert("-32768") == .integer(-32768))
        #expect(try Self.converter(.integer32).convert("+42") == .integer(42))
        #expect(try Self.converter(.integer64).convert("-9223372036854775808") == .integer(Int64.min))
        #expect(try Self.converter(.integer64).convert("9223372036854775807") == .integer(Int64.max))
        #expect(try Self.converter(.double).convert("-12.5e2") == .real(-1250))
        #expect(try Self.converter(.float).convert("0.1") == .real(Double(Float(0.1))))
        #expect(try Self.converter(.boolean).convert("YES") == .integer(1))
        #expect(try Self.converter(.boolean).convert("false") == .integer(0))
        #expect(try Self.converter(.boolean).convert("1") == .integer(1))
        #expect(try Self.converter(.string).convert("  Stade Miejski  ") == .text("  Stade Miejski  "))
        #expect(try Self.converter(.date, userInfo: ["dateFormat": "MM/dd/yyyy"]).convert(" 03/05/2010 ") == .real(289_440_000))
        #expect(try Self.converter(.date).convert("2001-01-02") == .real(86_400))
        #expect(try Self.converter(.date, userInfo: ["dateFormat": "MM/dd/yyyy"]).convert("@-1.25") == .real(-1.25))
        #expect(try Self.converter(.binary).convert("AAEC") == .blob([0, 1, 2]))
        #expect(try Self.converter(.decimal).convert("19.99") == .real(19.99))
        #expect(try Self.converter(.float).convert("3.4028235e38") == .real(Double(Float.greatestFiniteMagnitude)), "the largest Float")
        #expect(try Self.converter(.float).convert("-3.4028235e38") == .real(-Double(Float.greatestFiniteMagnitude)))
        #expect(try Self.converter(.decimal).convert(" 1.50 ") == .real(1.5))
        #expect(try Self.converter(.decimal).convert("123456789012345.6") == .real(123_456_789_012_345.6))
        #expect(try Self.converter(.binary).convert(" AA\n EC ") == .blob([0, 1, 2]), "white space inside base64 is allowed")
        #expect(try Self.converter(.uuid).convert("00000000-0000-0000-0000-000000000001") == .blob([UInt8](repeating: 0, count: 15) + [1]))
    }

    @Test("values that do not convert say why", arguments: [
        (AttributeType.integer16, "32768", "'32768' does not fit Integer 16 (-32768...32767)"),
        (.integer16, "-32769", "'-32769' does not fit Integer 16 (-32768...32767)"),
        (.integer32, "12.5", "'12.5' is not an Integer 32"),
        (.integer64, "99999999999999999999", "'99999999999999999999' does not fit Integer 64"),
        (.integer64, "", "'' is not an Integer 64"),
        (.double, "abc", "'abc' is not a Double"),
        (.double, "inf", "'inf' is not a Double"),
        (.double, "0x1p3", "'0x1p3' is not a Double"),
        (.double, "1e999", "'1e999' does not fit a Double"),
        (.float, "1e39", "'1e39' does not fit a Float"),
        (.float, "3.5e38", "'3.5e38' does not fit a Float"),
        (.boolean, "maybe", "'maybe' is not a Boolean"),
        (.date, "01/16/2010", "'01/16/2010' is not a date in the format ISO 8601"),
        (.uuid, "not-a-uuid", "'not-a-uuid' is not a UUID"),
        (.binary, "@@@", "'@@@' is not base64 data"),
        (.binary, "!!!!", "'!!!!' is not base64 data"),
        (.decimal, "12345678901234567890.12", "'12345678901234567890.12' has more significant digits than a Decimal keeps"),
        (.decimal, "0.10000000000000000001", "'0.10000000000000000001' has more significant digits than a Decimal keeps"),
        (.binary, "AAEC!", "'AAEC!' is not base64 data"),
    ])
    func failures(_ type: AttributeType, _ text: String, _ message: String) throws {
        let failure = try #require(throws: ConversionFailure.self) { try Self.converter(type).convert(text) }
        #expect(failure.description.hasPrefix(message), "\(failure)")
    }

    @Test("a bad dateFormat in the model is an error when the converter is made")
    func badPattern() {
        #expect(throws: DatePattern.PatternError.self) { try Self.converter(.date, userInfo: ["dateFormat": "QQQ yyyy"]) }
    }
}
