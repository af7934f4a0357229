/// Plain decimal text (`-12.456697`, `3e-4`) read to the Double it denotes, where that takes one
/// IEEE operation: at most 19 significant digits whose integer is at most 2^53, times or divided
/// by a power of ten up to 10^22. Both are exact doubles, so the one rounding is the correct one
/// (Clinger's fast path), the same bits `strtod` gives. Anything else (more digits, a larger
/// exponent, text `strtod` would not take whole) gets nil, and the caller asks `strtod`.
///
/// Measured: glibc's `strtod` works in multiple precision for every input, and took 0.4 s of a
/// 1M-event build's parsing thread (three doubles an event); seed data is mostly such short text.
enum DecimalText {
    /// 10^0 through 10^22, each exactly a Double (5^22 < 2^53); products of exact factors.
    private static let powersOfTen: [Double] = {
        var powers: [Double] = [1]
        for _ in 1...22 { powers.append(powers[powers.count - 1] * 10) }
        return powers
    }()

    /// The Double `bytes` denote (`[+-]digits[.digits][(e|E)[+-]digits]`, a digit before or after
    /// the point), when the fast path gives it exactly; otherwise nil.
    static func exactDouble(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
        let count = bytes.count
        var index = 0
        var negative = false
        if index < count, bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+") {
            negative = bytes[index] == UInt8(ascii: "-")
            index += 1
        }
        var mantissa: UInt64 = 0
        var significant = 0
        var digits = 0
        var exponent = 0
        var inFraction = false
        while index < count {
            let byte = bytes[index]
            let digit = byte &- UInt8(ascii: "0")
            if digit < 10 {
                if mantissa != 0 || digit != 0 {
                    significant += 1
                    guard significant <= 19 else { return nil }
                    mantissa = mantissa &* 10 &+ UInt64(digit)
                }
                if inFraction { exponent -= 1 }
                digits += 1
            } else if byte == UInt8(ascii: "."), !inFraction {
                inFraction = true
            } else {
                break
            }
            index += 1
        }
        guard digits > 0 else { return nil }
        if index < count, bytes[index] | 0x20 == UInt8(ascii: "e") {
            index += 1
            var negativeExponent = false
            if index < count, bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+") {
                negativeExponent = bytes[index] == UInt8(ascii: "-")
                index += 1
            }
            var written = 0
            var exponentDigits = 0
            while index < count, bytes[index] &- UInt8(ascii: "0") < 10 {
                written = written * 10 + Int(bytes[index] &- UInt8(ascii: "0"))
                guard written < 10_000 else { return nil }
                exponentDigits += 1
                index += 1
            }
            guard exponentDigits > 0 else { return nil }
            exponent += negativeExponent ? -written : written
        }
        guard index == count, mantissa <= 1 << 53 else { return nil }
        if mantissa == 0 { return negative ? -0.0 : 0.0 }
        guard exponent >= -22, exponent <= 22 else { return nil }
        let magnitude = exponent < 0 ? Double(mantissa) / powersOfTen[-exponent] : Double(mantissa) * powersOfTen[exponent]
        return negative ? -magnitude : magnitude
    }
}
