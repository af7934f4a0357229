import Foundation
import PropertyBased

/// Random sets of samples, weighted towards the edges of every type.
extension Sample {
    /// 1 to `maximum` objects with distinct keys (as bytes), each naming a parent among them or none.
    static func generator(maximum: Int = 8) -> Generator<[Sample], Shrink.None<[Sample]>> {
        Generator { rng in
            var keys: [Text] = []
            let count = Int.random(in: 1...maximum, using: &rng)
            while keys.count < count {
                let key = randomKey(using: &rng)
                if !keys.contains(where: { Array(($0.string ?? "").utf8) == Array((key.string ?? "").utf8) }) { keys.append(key) }
            }
            if SampleFormat.keyed(keys) {
                // A binary plist's keyed section is read in its keys' byte order (a dictionary has
                // no order of its own): the other formats write it in that order too.
                keys.sort { ($0.string ?? "").utf8.lexicographicallyPrecedes(($1.string ?? "").utf8) }
            }
            var samples = keys.enumerated().map { index, key in
                var values: [String: Given] = [:]
                for attribute in attributes.dropFirst() where Bool.random(using: &rng) {
                    values[attribute.name] = randomValue(attribute.type, using: &rng)
                }
                let parent = Int.random(in: 0...keys.count, using: &rng)
                return Sample(name: key, values: values, parent: parent < keys.count ? keys[parent] : nil, id: "s\(index)")
            }
            for index in samples.indices {
                // Any others, itself included, each once.
                samples[index].friends = samples.indices.filter { _ in Int.random(in: 0..<3, using: &rng) == 0 }.map { "s\($0)" }
            }
            // Each object in one owner's list at most (its `memberOf` is a to-one), in any order.
            for member in samples.indices.shuffled(using: &rng) where Bool.random(using: &rng) {
                samples[Int.random(in: 0..<samples.count, using: &rng)].members.append("s\(member)")
            }
            return samples
        }
    }

    /// Keys: plain, accented in NFC and in NFD (two keys: the unique index compares bytes),
    /// other planes, and many that share a long prefix.
    static func randomKey(using rng: inout some RandomNumberGenerator) -> Text {
        let pool = ["Polen", "Éire", "E\u{301}ire", "Ångström", "A\u{30A}ngstro\u{308}m", "𝔘𝔫𝔦", "日本", "🇵🇱", "key&<\"'>", " padded ", "0", "-1", "a b"]
        if Bool.random(using: &rng) { return Text(pool.randomElement(using: &rng)!) }
        return Text("k\(String(repeating: "x", count: Int.random(in: 0...40, using: &rng)))\(Int.random(in: 0...999, using: &rng))")
    }

    static func randomValue(_ type: String, using rng: inout some RandomNumberGenerator) -> Given {
        switch type {
        case "String": return .text(randomText(using: &rng))
        case "Integer 16": return .number(randomInteger(bits: 16, using: &rng))
        case "Integer 32": return .number(randomInteger(bits: 32, using: &rng))
        case "Integer 64": return .number(randomInteger(bits: 64, using: &rng))
        case "Double", "Float": return .number(randomReal(using: &rng))
        case "Decimal":
            return .number(["0", "12", "-3.25", "0.1", "1e-7", "99999999999999.9", "123456789012345678901234567890", "0.30000000000000004"].randomElement(using: &rng)!)
        case "Boolean": return .boolean(Bool.random(using: &rng))
        case "Date":
            let seconds: [Double] = [0, -978_307_200, 1e11, -1e11, -6.3e10, 2.5e10, 0.5, -0.25, 123_456_789.125, 8.64e15, -8.64e15]
            let whole = Double(Int.random(in: -4_000_000_000...4_000_000_000, using: &rng))
            switch Int.random(in: 0..<4, using: &rng) {
            case 0: return .date(seconds.randomElement(using: &rng)!)
            case 1: return .date(whole)
            case 2: return .date(whole + Double(Int.random(in: 0..<1000, using: &rng)) / 1000)  // milliseconds, as apps store them
            default: return .date(Double.random(in: -1e11...1e11, using: &rng))  // any double: ISO text or @seconds
            }
        case "Binary":
            return .data((0..<[0, 1, 3, 40, 300].randomElement(using: &rng)!).map { _ in UInt8.random(in: 0...255, using: &rng) })
        case "UUID": return .uuid((0..<16).map { _ in UInt8.random(in: 0...255, using: &rng) })
        default: preconditionFailure("no generator for \(type)")
        }
    }

    /// Text: empty, control characters and NUL, every plane, NFC and NFD, lone surrogates,
    /// XML's special characters, long runs.
    static func randomText(using rng: inout some RandomNumberGenerator) -> Text {
        switch Int.random(in: 0..<10, using: &rng) {
        case 0: return Text("")
        case 1: return Text(String(repeating: "long ", count: Int.random(in: 1000...20000, using: &rng)))
        default:
            var units: [Text.Unit] = []
            for _ in 0..<Int.random(in: 1...12, using: &rng) {
                switch Int.random(in: 0..<12, using: &rng) {
                case 0: units.append(.scalar(Unicode.Scalar(UInt8.random(in: 0...0x1F, using: &rng))))  // C0, NUL included
                case 1: units.append(.scalar("\u{0}"))
                case 2:
                    // Lone: a high surrogate right before a low one would make a pair (a valid scalar).
                    let unit = [0xD800, 0xDBFF, 0xDC00, 0xDFFF].randomElement(using: &rng)! as UInt16
                    if unit >= 0xDC00, case .loneSurrogate(let previous) = units.last, previous < 0xDC00 { units.append(.scalar("x")) }
                    units.append(.loneSurrogate(unit))
                case 3:
                    // a scalar from planes 0, 1, 2, 3, 14, 15 or 16, no surrogate
                    let plane = [0, 1, 2, 3, 14, 15, 16].randomElement(using: &rng)!
                    var value = UInt32(plane << 16) | UInt32.random(in: 0...0xFFFF, using: &rng)
                    if (0xD800...0xDFFF).contains(value) { value = 0xE000 }
                    units.append(.scalar(Unicode.Scalar(value)!))
                case 4: units += Text("é").units  // NFC
                case 5: units += Text("e\u{301}").units  // NFD
                case 6: units += Text(["&", "<", ">", "\"", "'", "]]>", "|", ",", "\n", "\r\n", "\t", " "].randomElement(using: &rng)!).units
                case 7: units.append(.scalar(["\u{7F}", "\u{85}", "\u{A0}", "\u{2028}", "\u{FEFF}", "\u{FFFD}", "\u{FFFE}", "\u{FFFF}"].randomElement(using: &rng)!))
                default: units += Text(["Polen", "Łódź", "日本語", "🇵🇱", "x"].randomElement(using: &rng)!).units
                }
            }
            return Text(units)
        }
    }

    /// Integer literals near the type's bounds, past them, and past Int64.
    static func randomInteger(bits: Int, using rng: inout some RandomNumberGenerator) -> String {
        let maximum = bits == 64 ? Int64.max : (Int64(1) << (bits - 1)) - 1
        let minimum = -maximum - 1
        let edges: [String] = [String(maximum), String(minimum), String(maximum &+ 1), String(minimum &- 1), "0", "-0", "1",
                               "9223372036854775808", "-9223372036854775809", "18446744073709551616"]
        if Bool.random(using: &rng) { return edges.randomElement(using: &rng)! }
        return String(Int64.random(in: minimum...maximum, using: &rng))
    }

    /// Real literals: zeros of both signs, subnormals, the largest finite, overflow and
    /// underflow, Float's edges, and ordinary values.
    static func randomReal(using rng: inout some RandomNumberGenerator) -> String {
        let edges = ["0", "-0", "0.0", "5e-324", "2.2250738585072014e-308", "1.7976931348623157e308", "1e309", "-1e309", "1e-400",
                     "3.4028235e38", "3.5e38", "1.4e-45", "1e-46", "1.17549435e-38", "0.1", "-2.5", "1e-5", "123456789.125", "1E+2", "nan", "inf"]
        switch Int.random(in: 0..<4, using: &rng) {
        case 0, 1: return edges.randomElement(using: &rng)!
        case 2:
            // As seed data mostly gives them: a few decimals, or digits and an exponent (read
            // in one exact operation where they allow it, by strtod otherwise).
            let digits = Int.random(in: -999_999...999_999, using: &rng)
            return Bool.random(using: &rng)
                ? String(format: "%.\(Int.random(in: 0...8, using: &rng))f", Double(digits) / 1000)
                : "\(digits)e\(Int.random(in: -30...30, using: &rng))"
        default: return "\(Double.random(in: -1e6...1e6, using: &rng))"
        }
    }
}
