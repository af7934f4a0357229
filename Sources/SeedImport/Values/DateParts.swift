/// The fields of one date as read.
struct DateParts {
    var year = 1970
    var month = 1
    var day = 1
    var hour = 0
    var minute = 0
    var second = 0
    /// The digits after the decimal point, as written (none: whole seconds).
    var fraction = UnsafeBufferPointer<UInt8>(start: nil, count: 0)
    var offset: Int?

    /// Seconds since 2001-01-01T00:00:00Z — the double nearest the instant written, fraction
    /// included — or nil for an impossible date.
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
        return Self.nearestDouble(whole: seconds - 978_307_200, fraction: fraction)
    }

    /// The double nearest `whole` + 0.`fraction` (decimal digits). Adding a rounded fraction to
    /// the whole seconds would round twice (…59.75 before 2001 gave -0.2499999999999999, not
    /// -0.25); here one exact integer is divided by an exact power of ten, which IEEE rounds
    /// once, or — past 2^53 — the decimal text goes through the correctly rounded text reader.
    static func nearestDouble(whole: Int, fraction: UnsafeBufferPointer<UInt8>) -> Double {
        guard let last = fraction.lastIndex(where: { $0 != 48 }) else { return Double(whole) }
        let digits = UnsafeBufferPointer(rebasing: fraction[...last])  // trailing zeros change nothing
        if digits.count <= 15 {
            var scale: Int64 = 1
            var numerator: Int64 = 0
            for digit in digits {
                scale *= 10
                numerator = numerator * 10 + Int64(digit - 48)
            }
            // Exact while both stay below 2^53 (a whole second of year 9999 times 10^15 does not).
            let (scaled, overflow) = Int64(whole).multipliedReportingOverflow(by: scale)
            if !overflow, scaled.magnitude < 1 << 53, (scaled + numerator).magnitude < 1 << 53 {
                return Double(scaled + numerator) / Double(scale)
            }
        }
        // whole + 0.d1…dk; below zero, -((|whole| - 1) + 0.c1…ck) with c = 10^k - d, digit by digit.
        var text = whole < 0 ? "-" + String(-whole - 1) + "." : String(whole) + "."
        if whole < 0 {
            for (index, digit) in digits.enumerated() {
                text.unicodeScalars.append(Unicode.Scalar(index == digits.count - 1 ? 48 + 10 - (digit - 48) : 48 + 9 - (digit - 48)))
            }
        } else {
            text += String(decoding: digits, as: UTF8.self)
        }
        return Double(text)!
    }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }
}
