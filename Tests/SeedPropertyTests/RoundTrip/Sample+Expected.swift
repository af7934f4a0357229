import Foundation
import SeedStore

/// What the store must hold for a value, independent of the source format: seedgen's rules,
/// stated once here from the README, not from the code under test.
extension Sample.Given {
    /// The stored value, or nil when every format must refuse the value.
    func stored(as type: String, attribute: String) -> SQLValue? {
        switch (type, self) {
        case ("String", .text(let text)):
            return text.string.map { .text($0) }
        case ("Integer 16", .number(let literal)): return Self.integer(literal, Int64(Int16.min)...Int64(Int16.max))
        case ("Integer 32", .number(let literal)): return Self.integer(literal, Int64(Int32.min)...Int64(Int32.max))
        case ("Integer 64", .number(let literal)): return Self.integer(literal, Int64.min...Int64.max)
        case ("Double", .number(let literal)):
            guard let value = Self.real(literal) else { return nil }
            return .real(value == 0 ? 0 : value)  // SQLite keeps no sign of zero
        case ("Float", .number(let literal)):
            guard let value = Self.real(literal) else { return nil }
            let rounded = Float(value)
            guard rounded.isFinite, rounded != 0 || value == 0 else { return nil }  // overflow and underflow alike
            return .real(rounded == 0 ? 0 : Double(rounded))
        case ("Decimal", .number(let literal)):
            guard let value = Self.real(literal), Decimal(string: literal) == Decimal(string: "\(value)") else { return nil }
            return .real(value == 0 ? 0 : value)
        case ("Boolean", .boolean(let value)): return .integer(value ? 1 : 0)
        case ("Date", .date(let seconds)): return seconds.isFinite ? .real(seconds == 0 ? 0 : seconds) : nil
        case ("Binary", .data(let bytes)): return .blob(attribute == "ext" ? ExternalBinary.inline(bytes) : bytes)
        case ("UUID", .uuid(let bytes)): return .blob(bytes)
        default: preconditionFailure("the generator gives \(type) no \(self)")
        }
    }

    /// An integer literal within `range`.
    private static func integer(_ literal: String, _ range: ClosedRange<Int64>) -> SQLValue? {
        guard let value = Int64(literal), range.contains(value) else { return nil }
        return .integer(value)
    }

    /// A real literal's value: nil when it is not finite, or when a literal that is not zero
    /// comes out as zero (underflow is refused as overflow is).
    static func real(_ literal: String) -> Double? {
        guard let value = Double(literal), value.isFinite else { return nil }
        let mantissa = literal.prefix { $0 != "e" && $0 != "E" }
        if value == 0, mantissa.contains(where: { ("1"..."9").contains($0) }) { return nil }
        return value
    }

    /// Holds a character no XML format can carry.
    var outsideXML: Bool {
        if case .text(let text) = self { return text.outsideXML }
        return false
    }
}

extension SQLValue {
    /// The same stored value: strings byte for byte, numbers by value (SQLite keeps an integral
    /// value of a NUMERIC column, a Decimal's or a Date's, as an integer), reals bit for bit.
    func sameStored(as other: SQLValue) -> Bool {
        switch (self, other) {
        case (.null, .null): true
        case (.text(let a), .text(let b)): Array(a.utf8) == Array(b.utf8)
        case (.blob(let a), .blob(let b)): a == b
        case (.integer(let a), .integer(let b)): a == b
        case (.real(let a), .real(let b)): a.bitPattern == b.bitPattern
        case (.integer(let a), .real(let b)), (.real(let b), .integer(let a)): Double(a) == b && b.rounded() == b && abs(b) < 0x1p63
        default: false
        }
    }
}
