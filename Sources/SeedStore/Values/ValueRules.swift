import Foundation
import SeedModel

/// An attribute's validation rules (`minValueString`, `maxValueString`, the date bounds,
/// `regularExpressionString`), checked as Core Data checks them on save: numbers and dates
/// within their bounds, a String's length (in UTF-16 units, as `NSString` counts) within its
/// bounds and the whole String matching the pattern. A store that breaks them builds, but the
/// app's first save of such an object fails, so seedgen refuses them at build.
package struct ValueRules: Sendable {
    private enum Bound: Sendable {
        case number(Double)
        case length(Int)
    }

    private let type: AttributeType
    private let minimum: Bound?
    private let maximum: Bound?
    private let pattern: (text: String, expression: NSRegularExpressionBox)?

    /// The rules of `attribute`; nil when it has none that apply to its type. A rule that
    /// cannot be read (a bound that is not a number, a pattern that does not compile) throws.
    package init?(_ attribute: AttributeDescription) throws(ValueRuleError) {
        let validation = attribute.validation
        type = attribute.type
        func bound(_ text: String?, _ seconds: Double?, _ key: String) throws(ValueRuleError) -> Bound? {
            switch attribute.type {
            case .integer16, .integer32, .integer64, .double, .float, .decimal:
                guard let text else { return nil }
                guard let number = Double(text.trimmingCharacters(in: .whitespaces)) else {
                    throw ValueRuleError("\(key) '\(text)' is not a number")
                }
                return .number(number)
            case .date:
                return seconds.map(Bound.number)
            case .string:
                guard let text else { return nil }
                guard let length = Int(text.trimmingCharacters(in: .whitespaces)), length >= 0 else {
                    throw ValueRuleError("\(key) '\(text)' is not a length")
                }
                return .length(length)
            default:
                return nil
            }
        }
        minimum = try bound(validation.minimum, validation.earliest, "minValueString")
        maximum = try bound(validation.maximum, validation.latest, "maxValueString")
        if attribute.type == .string, let text = validation.pattern {
            do {
                // MATCHES semantics: the whole string.
                pattern = (text, NSRegularExpressionBox(try NSRegularExpression(pattern: "^(?:\(text))$")))
            } catch {
                throw ValueRuleError("regularExpressionString '\(text)' is not a regular expression")
            }
        } else {
            pattern = nil
        }
        if minimum == nil && maximum == nil && pattern == nil { return nil }
    }

    /// The rule `value` breaks, in words; nil when it keeps them all (nil values are the
    /// business of `optional`, not of these rules).
    package func violation(_ value: SQLValue) -> String? {
        switch value {
        case .integer(let number): return numberViolation(Double(number), shown: String(number))
        case .real(let number): return numberViolation(number, shown: type == .date ? DateText.iso8601(secondsSinceReferenceDate: number) : "\(number)")
        case .text(let text):
            let length = text.utf16.count
            if case .length(let least) = minimum, length < least {
                return "its length \(length) is less than the model's minimum length \(least) (minValueString)"
            }
            if case .length(let most) = maximum, length > most {
                return "its length \(length) is more than the model's maximum length \(most) (maxValueString)"
            }
            if let pattern {
                let whole = NSRange(text.startIndex..., in: text)
                if pattern.expression.value.firstMatch(in: text, range: whole) == nil {
                    return "it does not match the model's regularExpressionString '\(pattern.text)'"
                }
            }
            return nil
        default: return nil
        }
    }

    private func numberViolation(_ number: Double, shown: String) -> String? {
        let (lowKey, highKey) = type == .date ? ("minDateTimeInterval", "maxDateTimeInterval") : ("minValueString", "maxValueString")
        func describe(_ bound: Double) -> String {
            type == .date ? DateText.iso8601(secondsSinceReferenceDate: bound) : (bound == bound.rounded() && abs(bound) < 1e15 ? String(Int64(bound)) : "\(bound)")
        }
        if case .number(let least) = minimum, number < least {
            return "\(shown) is less than the model's minimum \(describe(least)) (\(lowKey))"
        }
        if case .number(let most) = maximum, number > most {
            return "\(shown) is more than the model's maximum \(describe(most)) (\(highKey))"
        }
        return nil
    }
}
