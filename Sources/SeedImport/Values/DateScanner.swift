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

    /// Digits after the decimal point (the point itself is a literal in patterns), kept as
    /// written: `DateParts` turns them into the nearest double with the seconds.
    mutating func scanFraction(into parts: inout DateParts) -> Bool {
        let start = position
        while let byte = peek(), byte >= 48, byte <= 57 { position += 1 }
        parts.fraction = UnsafeBufferPointer(rebasing: bytes[start..<position])
        return position > start
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
