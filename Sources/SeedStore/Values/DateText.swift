/// Dates as text in one calendar everywhere: ISO 8601's proleptic Gregorian calendar, for any
/// year (Foundation's formatters switch to the Julian calendar before 1582, so a date that went
/// in as `1500-03-01` would come out as `1500-02-20`).
package enum DateText {
    /// The parts of a moment, in UTC.
    package struct Parts: Sendable, Equatable {
        package var year: Int
        package var month: Int
        package var day: Int
        package var hour: Int
        package var minute: Int
        package var second: Int
        /// Milliseconds, rounded.
        package var millisecond: Int
    }

    /// Seconds since 2001-01-01T00:00:00Z (Core Data's dates) as calendar parts in UTC.
    package static func parts(secondsSinceReferenceDate seconds: Double) -> Parts {
        // Milliseconds since 1970, rounded once, so that 59.9996 s becomes the next minute.
        let total = ((seconds + 978_307_200) * 1000).rounded()
        let milliseconds = seconds.isFinite ? Int64(total.clamped(to: -9.2e18...9.2e18)) : 0
        let (days, dayMilliseconds) = floorDivision(milliseconds, 86_400_000)
        let (year, month, day) = civilDate(daysSince1970: days)
        let second = dayMilliseconds / 1000
        return Parts(year: year, month: month, day: day, hour: Int(second / 3600),
                     minute: Int(second / 60 % 60), second: Int(second % 60), millisecond: Int(dayMilliseconds % 1000))
    }

    /// The year, month and day of a day counted from 1970-01-01 in the proleptic Gregorian
    /// calendar (H. Hinnant's civil_from_days).
    package static func civilDate(daysSince1970 days: Int64) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        return (Int(yearOfEra + era * 400 + (month <= 2 ? 1 : 0)), Int(month), Int(day))
    }

    /// Whether a moment has calendar parts here: within ±9.2e15 seconds (about 290 million
    /// years) of 1970, whose milliseconds fit 64 bits. Others print as `@seconds`, exactly.
    package static func isCalendarDate(_ seconds: Double) -> Bool {
        seconds.isFinite && abs((seconds + 978_307_200) * 1000) < 9.2e18
    }

    /// `2012-06-08T16:00:00Z`, with `.250` milliseconds when the moment has a fraction; years
    /// outside 0…9999 as ISO 8601's expanded form (`-0044`, `+10000`); a moment without calendar
    /// parts (`isCalendarDate`) as `@seconds` since 2001, never a clamped wrong date.
    package static func iso8601(secondsSinceReferenceDate seconds: Double) -> String {
        guard isCalendarDate(seconds) else { return "@\(seconds)" }
        let parts = parts(secondsSinceReferenceDate: seconds)
        var text = year(parts.year) + "-" + pad(parts.month, 2) + "-" + pad(parts.day, 2)
        text += "T" + pad(parts.hour, 2) + ":" + pad(parts.minute, 2) + ":" + pad(parts.second, 2)
        if parts.millisecond != 0 { text += "." + pad(parts.millisecond, 3) }
        return text + "Z"
    }

    /// `2026-11-22 10:00:00.000`: the listing form the seed apps print.
    package static func listing(secondsSinceReferenceDate seconds: Double) -> String {
        guard isCalendarDate(seconds) else { return "@\(seconds)" }
        let parts = parts(secondsSinceReferenceDate: seconds)
        return year(parts.year) + "-" + pad(parts.month, 2) + "-" + pad(parts.day, 2) + " "
            + pad(parts.hour, 2) + ":" + pad(parts.minute, 2) + ":" + pad(parts.second, 2) + "." + pad(parts.millisecond, 3)
    }

    private static func year(_ year: Int) -> String {
        if year < 0 { return "-" + pad(-year, 4) }
        return year > 9999 ? "+" + String(year) : pad(year, 4)
    }

    /// `number` in at least `width` digits, zeros in front.
    package static func pad(_ number: Int, _ width: Int) -> String {
        let digits = String(number)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }

    private static func floorDivision(_ value: Int64, _ divisor: Int64) -> (Int64, Int64) {
        let quotient = value / divisor
        let remainder = value % divisor
        return remainder < 0 ? (quotient - 1, remainder + divisor) : (quotient, remainder)
    }
}

private extension Double {
    func clamped(to range: ClosedRange<Double>) -> Double {
        Swift.min(Swift.max(self, range.lowerBound), range.upperBound)
    }
}
