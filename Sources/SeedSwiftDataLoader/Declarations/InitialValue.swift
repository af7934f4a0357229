import Foundation
import SwiftSyntax

/// A stored property's initial value, read as far as it gives the property's type without
/// context (as Swift infers an unannotated property's type) and the model's default value.
struct InitialValue {
    /// What the expression is, for type inference.
    indirect enum Form: Equatable {
        /// A literal, with the type Swift gives it without context: `"a"` String, `1` Int,
        /// `1.5` Double, `true` Bool, `["a"]` [String].
        case literal(DeclaredType)
        /// `Type.member` (`Date.now`, `Provider.local`, `Chain.example`): its type is the
        /// member's, found once `Type` is resolved.
        case member(base: String, member: String)
        /// A call of a type: `Type()`, `Type(x: 1)`, `[T]()`, `[K: V]()`, `Array<T>()`, `Type<A>()`.
        case call(DeclaredType)
        /// Anything whose type Swift takes from context or from code: `.case`, `[]`, `nil`, a
        /// function's result, an operator.
        case unknown
    }

    var form: Form
    /// The value as Core Data writes a default (`YES`, `1`, text; a `[String]` as JSON text).
    var literal: String?
    /// The case it names (`.calm`, `Mood.calm`).
    var caseName: String?

    /// Reads `expression`.
    init(_ expression: ExprSyntax) {
        (form, literal) = Self.read(expression)
        caseName = Self.caseName(expression)
    }

    private static func read(_ expression: ExprSyntax) -> (Form, String?) {
        if let text = expression.as(StringLiteralExprSyntax.self) {
            return (.literal(.named("String")), text.representedLiteralValue)
        }
        if expression.is(IntegerLiteralExprSyntax.self) || expression.is(FloatLiteralExprSyntax.self) {
            return number(expression, negated: false)
        }
        if let prefix = expression.as(PrefixOperatorExprSyntax.self), prefix.operator.text == "-",
           prefix.expression.is(IntegerLiteralExprSyntax.self) || prefix.expression.is(FloatLiteralExprSyntax.self) {
            return number(prefix.expression, negated: true)
        }
        if let boolean = expression.as(BooleanLiteralExprSyntax.self) {
            return (.literal(.named("Bool")), boolean.literal.tokenKind == .keyword(.true) ? "YES" : "NO")
        }
        if let array = expression.as(ArrayExprSyntax.self) {
            return arrayLiteral(array)
        }
        if let call = expression.as(FunctionCallExprSyntax.self), call.trailingClosure == nil,
           let callee = calledType(call.calledExpression) {
            return (.call(callee), nil)
        }
        if let member = expression.as(MemberAccessExprSyntax.self), let base = member.base,
           let name = typePath(base), member.declName.argumentNames == nil {
            return (.member(base: name, member: member.declName.baseName.plainName), nil)
        }
        return (.unknown, nil)
    }

    /// `[]` has no type of its own; `["a", "b"]` is a [String] (its JSON text the default);
    /// other literal elements give `[Int]`, `[Double]`, `[Bool]` when all agree.
    private static func arrayLiteral(_ array: ArrayExprSyntax) -> (Form, String?) {
        let elements = array.elements.map { read($0.expression) }
        // `[]` types nothing, but is the default of a `[String]` that starts empty.
        if elements.isEmpty { return (.unknown, "[]") }
        guard let first = elements.first, case .literal(let type) = first.0,
              elements.allSatisfy({ $0.0 == first.0 }) else { return (.unknown, nil) }
        if type == .named("String") {
            let strings = elements.compactMap(\.1)
            guard strings.count == elements.count, let json = try? JSONSerialization.data(withJSONObject: strings) else {
                return (.literal(.array(type)), nil)
            }
            return (.literal(.array(type)), String(decoding: json, as: UTF8.self))
        }
        return (.literal(.array(type)), nil)
    }

    private static func number(_ expression: ExprSyntax, negated: Bool) -> (Form, String?) {
        let sign = negated ? "-" : ""
        if let integer = expression.as(IntegerLiteralExprSyntax.self) {
            let digits = integer.literal.text.replacingOccurrences(of: "_", with: "")
            let value: Int64? = switch digits.prefix(2) {
            case "0x": Int64(digits.dropFirst(2), radix: 16)
            case "0o": Int64(digits.dropFirst(2), radix: 8)
            case "0b": Int64(digits.dropFirst(2), radix: 2)
            default: Int64(digits)
            }
            return (.literal(.named("Int")), value.map { sign + String($0) })
        }
        if let float = expression.as(FloatLiteralExprSyntax.self) {
            let text = float.literal.text.replacingOccurrences(of: "_", with: "")
            return (.literal(.named("Double")), Double(text) != nil && !text.hasPrefix("0x") ? sign + text : nil)
        }
        return (.unknown, nil)
    }

    /// The type a call's callee names: `Date`, `Foundation.UUID`, `[T]`, `[K: V]`, `Array<T>`,
    /// `Type<A>`, `Type.init`; nil for a function or method.
    private static func calledType(_ expression: ExprSyntax) -> DeclaredType? {
        if let array = expression.as(ArrayExprSyntax.self), array.elements.count == 1,
           let element = typeOfExpression(array.elements.first!.expression) {
            return .array(element)
        }
        if let dictionary = expression.as(DictionaryExprSyntax.self), case .elements(let list) = dictionary.content, list.count == 1,
           let key = typeOfExpression(list.first!.key), let value = typeOfExpression(list.first!.value) {
            return .dictionary(key, value)
        }
        if let member = expression.as(MemberAccessExprSyntax.self), member.declName.baseName.tokenKind == .keyword(.`init`),
           let base = member.base {
            return typeOfExpression(base)
        }
        let type = typeOfExpression(expression)
        guard case .named(let name)? = type else { return type }
        // By Swift's convention a type's name starts with a capital; a lower-case callee is a function.
        return name.split(separator: ".").last?.first?.isUppercase == true ? type : nil
    }

    /// An expression that spells a type (`Date`, `A.B`, `Set<String>`, `[Int]`), as a type.
    private static func typeOfExpression(_ expression: ExprSyntax) -> DeclaredType? {
        if let specialized = expression.as(GenericSpecializationExprSyntax.self), let base = typePath(specialized.expression) {
            var arguments: [DeclaredType] = []
            for argument in specialized.genericArgumentClause.arguments {
                guard case .type(let type) = argument.argument else { return nil }
                arguments.append(DeclaredType(type))
            }
            return .generic(base, arguments)
        }
        if let array = expression.as(ArrayExprSyntax.self), array.elements.count == 1 {
            return typeOfExpression(array.elements.first!.expression).map { .array($0) }
        }
        if let type = expression.as(TypeExprSyntax.self) {
            return DeclaredType(type.type)
        }
        return typePath(expression).map { .named($0) }
    }

    /// `A`, `A.B.C` as written (identifiers only).
    private static func typePath(_ expression: ExprSyntax) -> String? {
        if let reference = expression.as(DeclReferenceExprSyntax.self), reference.argumentNames == nil {
            return reference.baseName.plainName
        }
        if let member = expression.as(MemberAccessExprSyntax.self), let base = member.base, let path = typePath(base),
           member.declName.argumentNames == nil {
            return path + "." + member.declName.baseName.plainName
        }
        return nil
    }

    /// The case an initial value names, `.calm` or `Mood.calm`; nil for anything else.
    static func caseName(_ expression: ExprSyntax) -> String? {
        guard let member = expression.as(MemberAccessExprSyntax.self), member.declName.argumentNames == nil,
              member.base == nil || member.base.flatMap(typePath) != nil else { return nil }
        return member.declName.baseName.plainName
    }
}
