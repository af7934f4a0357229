import Foundation
import SeedModel

extension AttributeDescription {
    /// The value a new object gets when none is given: the model's default as its column
    /// stores it (what Core Data applies on insert), nil when the model names none. Used by the
    /// importer and by the runtime's writer alike.
    ///
    /// Xcode writes defaults as `defaultValueString` (numbers, `YES`/`NO`, text, UUIDs) and, for
    /// dates, `defaultDateTimeInterval`: seconds since 2001-01-01T00:00:00Z.
    package func storedDefaultValue() throws(DefaultValueError) -> SQLValue? {
        guard let raw = defaultValue else { return nil }
        let text = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        func failure(_ what: String) -> DefaultValueError { DefaultValueError(description: "default value '\(raw)' \(what)") }
        func integer(_ range: ClosedRange<Int64>) throws(DefaultValueError) -> SQLValue {
            // Text that is no integer is read as Foundation's `longLongValue` reads it, as the
            // compiled model has it (`integerDefaultReading`): `NO` is 0.
            guard let number = Int64(text) ?? Self.leadingInteger(text), range.contains(number) else { throw failure("is not an \(type.rawValue)") }
            return .integer(number)
        }
        switch type {
        case .string, .uri:
            return .text(raw)
        case .integer16: return try integer(Int64(Int16.min)...Int64(Int16.max))
        case .integer32: return try integer(Int64(Int32.min)...Int64(Int32.max))
        case .integer64: return try integer(Int64.min...Int64.max)
        case .double, .decimal, .date:
            guard let number = Double(text) else { throw failure(type == .date ? "is not seconds since 2001" : "is not a number") }
            return .real(number)
        case .float:
            guard let number = Float(text), number.isFinite else { throw failure("is not a Float") }
            return .real(Double(number))
        case .boolean:
            switch text.lowercased() {
            case "yes", "true", "1": return .integer(1)
            case "no", "false", "0": return .integer(0)
            default: throw failure("is not a Boolean (YES/NO)")
            }
        case .uuid:
            guard let uuid = UUID(uuidString: text) else { throw failure("is not a UUID") }
            return .blob(withUnsafeBytes(of: uuid.uuid) { Array($0) })
        case .binary where declaredValue?.isArray == true, .transformable where declaredValue?.isArray == true:
            // A SwiftData array's initial value (`= []`), as JSON text.
            do {
                return .blob(try SwiftDataArrayText.stored(Array(text.utf8), as: declaredValue!))
            } catch {
                throw failure(error.description)
            }
        case .binary, .transformable, .objectID, .composite, .undefined:
            throw failure("cannot be a default of a \(type.rawValue) attribute")
        }
    }

    /// Why the default is read other than as written, or nil: an Integer default that is no
    /// integer (a real messaging app's model gives an Integer 32 the default `NO`, which Xcode's
    /// compiler accepts) is read as `longLongValue` reads text: its leading integer, else 0.
    package var defaultValueReading: String? {
        guard [.integer16, .integer32, .integer64].contains(type), let raw = defaultValue,
              Int64(raw.trimmingCharacters(in: .whitespacesAndNewlines)) == nil,
              let number = Self.leadingInteger(raw.trimmingCharacters(in: .whitespacesAndNewlines)) else { return nil }
        return "the default value '\(raw)' is no \(type.rawValue); read as \(number), as Foundation's longLongValue reads it"
    }

    /// Foundation's `longLongValue` on text: an optional sign and the digits that follow, 0 when
    /// there are none; nil when those digits overflow 64 bits (no default to guess).
    private static func leadingInteger(_ text: String) -> Int64? {
        var digits = Substring(text)
        let negative = digits.first == "-"
        if digits.first == "-" || digits.first == "+" { digits = digits.dropFirst() }
        let run = digits.prefix { $0.isASCII && $0.isNumber }
        guard !run.isEmpty else { return 0 }
        guard let magnitude = Int64(run) else { return nil }
        return negative ? -magnitude : magnitude
    }
}
