import SeedStore

extension DatePattern {
    /// Text in this pattern that this pattern reads back to exactly `seconds` (since
    /// 2001-01-01T00:00:00Z) — in UTC (`Z` where the pattern has a zone; a pattern without one
    /// is read at UTC by default) and with the fewest fraction digits, at most 9, that do — or
    /// nil when no such text does (a fraction in a pattern without one, a year a two-digit year
    /// or four digits cannot hold).
    package func exactText(secondsSinceReferenceDate seconds: Double) -> String? {
        // Years 1 to 9999 lie within ±2.6e11 seconds of 2001.
        guard seconds.isFinite, abs(seconds) < 2.6e11 else { return nil }
        let whole = seconds.rounded(.down)
        let fraction = seconds - whole  // exact: whole is within 1 of seconds
        let unix = Int(whole) + 978_307_200
        let days = unix >= 0 ? unix / 86_400 : (unix - 86_399) / 86_400
        let secondOfDay = unix - days * 86_400
        var parts = DateParts()
        (parts.year, parts.month, parts.day) = DateText.civilDate(daysSince1970: Int64(days))
        parts.hour = secondOfDay / 3_600
        parts.minute = secondOfDay / 60 % 60
        parts.second = secondOfDay % 60
        guard (1...9999).contains(parts.year) else { return nil }
        var scale = 1.0
        for digits in 0...9 {
            defer { scale *= 10 }
            var fractionDigits = ""
            if digits == 0 {
                guard fraction == 0 else { continue }
            } else {
                let scaled = (fraction * scale).rounded()
                guard scaled < scale else { continue }  // rounds up to the next second: more digits
                fractionDigits = DateText.pad(Int(scaled), digits)
            }
            guard let text = text(of: parts, fraction: fractionDigits) else { continue }
            if let read = secondsSinceReferenceDate(text), read.bitPattern == seconds.bitPattern { return text }
        }
        return nil
    }

    /// `parts` (UTC) written in this pattern; nil when the fraction does not fit it.
    private func text(of parts: DateParts, fraction: String) -> String? {
        if isISO8601 {
            return DateText.pad(parts.year, 4) + "-" + DateText.pad(parts.month, 2) + "-" + DateText.pad(parts.day, 2) + "T"
                + DateText.pad(parts.hour, 2) + ":" + DateText.pad(parts.minute, 2) + ":" + DateText.pad(parts.second, 2)
                + (fraction.isEmpty ? "" : "." + fraction) + "Z"
        }
        var text = ""
        var wroteFraction = fraction.isEmpty
        for field in fields {
            switch field {
            case .year(let digits): text += DateText.pad(digits == 2 ? parts.year - 2000 : parts.year, digits)
            case .month(let exact): text += exact ? DateText.pad(parts.month, 2) : String(parts.month)
            case .day(let exact): text += exact ? DateText.pad(parts.day, 2) : String(parts.day)
            case .hour(let exact): text += exact ? DateText.pad(parts.hour, 2) : String(parts.hour)
            case .minute: text += DateText.pad(parts.minute, 2)
            case .second: text += DateText.pad(parts.second, 2)
            case .fraction:
                text += fraction.isEmpty ? "0" : fraction
                wroteFraction = true
            case .zone: text += "Z"
            case .literal(let byte): text.unicodeScalars.append(Unicode.Scalar(byte))
            }
        }
        return wroteFraction ? text : nil
    }
}
