import Foundation
import SeedModel
import SwiftSyntax

/// Reads the literal arguments of SwiftData's macros (`@Attribute`, `@Relationship`, `#Unique`,
/// `#Index`) and the literal defaults of properties. What is not a literal is refused at its
/// place: the stored form must never be guessed.
struct MacroArguments {
    let source: ParsedSource

    /// `@Attribute(...)`.
    func attributeOptions(_ node: AttributeSyntax) throws(ModelError) -> AttributeOptions {
        var options = AttributeOptions()
        for argument in arguments(of: node) {
            switch argument.label?.text {
            case nil:
                switch try optionName(argument.expression) {
                case "unique": options.isUnique = true
                case "externalStorage": options.allowsExternalStorage = true
                case "preserveValueOnDeletion": options.preservesValueOnDeletion = true
                case "ephemeral": options.isEphemeral = true
                case let other:
                    throw source.place(of: argument).error("@Attribute option .\(other): what it does to the store and the version hash is not known here, so seedgen does not write it")
                }
            case "originalName": options.originalName = try string(argument.expression)
            case "hashModifier": options.hashModifier = try string(argument.expression)
            case let label?:
                throw source.place(of: argument).error("@Attribute argument '\(label):' is not understood")
            }
        }
        return options
    }

    /// `@Relationship(...)`.
    func relationshipOptions(_ node: AttributeSyntax) throws(ModelError) -> RelationshipOptions {
        var options = RelationshipOptions(place: source.place(of: node))
        for argument in arguments(of: node) {
            switch argument.label?.text {
            case "deleteRule":
                switch try optionName(argument.expression) {
                case "nullify": options.deleteRule = .nullify
                case "cascade": options.deleteRule = .cascade
                case "deny": options.deleteRule = .deny
                case "noAction": options.deleteRule = .noAction
                case let other: throw source.place(of: argument.expression).error("delete rule .\(other) is not one of .nullify, .cascade, .deny, .noAction")
                }
            case "minimumModelCount": options.minimumCount = try count(argument.expression)
            case "maximumModelCount": options.maximumCount = try count(argument.expression)
            case "originalName": options.originalName = try string(argument.expression)
            case "hashModifier": options.hashModifier = try string(argument.expression)
            case "inverse": options.inverse = try inverse(argument.expression)
            case nil:
                throw source.place(of: argument).error("@Relationship option \(argument.expression.trimmedDescription): what it does to the store and the version hash is not known here, so seedgen does not write it")
            case let label?:
                throw source.place(of: argument).error("@Relationship argument '\(label):' is not understood")
            }
        }
        return options
    }

    /// `#Unique<T>([\.a, \.b], [\.c])` or `#Index<T>([\.a], ...)`: each list's property names.
    func pathLists(_ node: MacroExpansionDeclSyntax) throws(ModelError) -> [NamedPaths] {
        var lists: [NamedPaths] = []
        for argument in node.arguments {
            guard argument.label == nil, let array = argument.expression.as(ArrayExprSyntax.self), !array.elements.isEmpty else {
                throw source.place(of: argument).error("#\(node.macroName.text) takes arrays of key paths (`[\\.name]`); this argument is not one")
            }
            var names: [String] = []
            for element in array.elements {
                guard let path = element.expression.as(KeyPathExprSyntax.self), path.root == nil,
                      path.components.count == 1, let name = Self.propertyName(path.components.first!) else {
                    throw source.place(of: element).error("#\(node.macroName.text): only a key path to a property of the model itself (`\\.name`) is understood")
                }
                names.append(name)
            }
            lists.append(NamedPaths(names: names, place: source.place(of: argument)))
        }
        guard !lists.isEmpty else { throw source.place(of: node).error("#\(node.macroName.text) names no property") }
        return lists
    }

    /// A property's initial value as a model default, and the type a literal or a type's call
    /// gives it: `"1"` (String), `1` (Int), `1.5` (Double), `true` (Bool, `YES`), `UUID()`.
    func initialValue(_ expression: ExprSyntax) -> (type: DeclaredType?, literal: String?) {
        if let text = expression.as(StringLiteralExprSyntax.self) {
            return (.named("String"), text.representedLiteralValue)
        }
        if expression.is(IntegerLiteralExprSyntax.self) || expression.is(FloatLiteralExprSyntax.self) {
            return number(expression, negated: false)
        }
        if let prefix = expression.as(PrefixOperatorExprSyntax.self), prefix.operator.text == "-" {
            return number(prefix.expression, negated: true)
        }
        if let boolean = expression.as(BooleanLiteralExprSyntax.self) {
            return (.named("Bool"), boolean.literal.tokenKind == .keyword(.true) ? "YES" : "NO")
        }
        if let array = expression.as(ArrayExprSyntax.self) {
            // Strings only: the JSON text a [String] default is read from (`[]` has no type of its own).
            let strings = array.elements.compactMap { $0.expression.as(StringLiteralExprSyntax.self)?.representedLiteralValue }
            guard strings.count == array.elements.count, let json = try? JSONSerialization.data(withJSONObject: strings) else { return (nil, nil) }
            return (strings.isEmpty ? nil : .array(.named("String")), String(decoding: json, as: UTF8.self))
        }
        if let call = expression.as(FunctionCallExprSyntax.self), let name = Self.typeName(call.calledExpression),
           name.first?.isUppercase == true {
            return (.named(name), nil)
        }
        return (nil, nil)
    }

    private func number(_ expression: ExprSyntax, negated: Bool) -> (type: DeclaredType?, literal: String?) {
        let sign = negated ? "-" : ""
        if let integer = expression.as(IntegerLiteralExprSyntax.self) {
            let digits = integer.literal.text.replacingOccurrences(of: "_", with: "")
            let value: Int64? = switch digits.prefix(2) {
            case "0x": Int64(digits.dropFirst(2), radix: 16)
            case "0o": Int64(digits.dropFirst(2), radix: 8)
            case "0b": Int64(digits.dropFirst(2), radix: 2)
            default: Int64(digits)
            }
            return (.named("Int"), value.map { sign + String($0) })
        }
        if let float = expression.as(FloatLiteralExprSyntax.self) {
            let text = float.literal.text.replacingOccurrences(of: "_", with: "")
            return (.named("Double"), Double(text) != nil && !text.hasPrefix("0x") ? sign + text : nil)
        }
        return (nil, nil)
    }

    /// The case an initial value names, `.calm` or `Mood.calm`; nil for anything else.
    static func caseName(_ expression: ExprSyntax) -> String? {
        guard let member = expression.as(MemberAccessExprSyntax.self),
              member.base == nil || member.base?.is(DeclReferenceExprSyntax.self) == true else { return nil }
        return member.declName.baseName.plainName
    }

    /// `Date`, `Foundation.UUID` for a call's callee that names a type.
    private static func typeName(_ expression: ExprSyntax) -> String? {
        if let reference = expression.as(DeclReferenceExprSyntax.self) { return reference.baseName.text }
        if let member = expression.as(MemberAccessExprSyntax.self), let base = member.base, let baseName = typeName(base) {
            return ["Swift", "Foundation"].contains(baseName) ? member.declName.baseName.text : baseName + "." + member.declName.baseName.text
        }
        return nil
    }

    private func arguments(of node: AttributeSyntax) -> LabeledExprListSyntax {
        if case .argumentList(let list) = node.arguments { return list }
        return []
    }

    /// `.name` (or `Schema.Attribute.Option.name`): the option's name.
    private func optionName(_ expression: ExprSyntax) throws(ModelError) -> String {
        guard let member = expression.as(MemberAccessExprSyntax.self), member.declName.argumentNames == nil else {
            throw source.place(of: expression).error("\(expression.trimmedDescription): only a plain option (`.unique`) is understood here")
        }
        return member.declName.baseName.text
    }

    private func string(_ expression: ExprSyntax) throws(ModelError) -> String {
        guard let literal = expression.as(StringLiteralExprSyntax.self), let text = literal.representedLiteralValue else {
            throw source.place(of: expression).error("\(expression.trimmedDescription) is not a string literal; seedgen reads only literals")
        }
        return text
    }

    private func count(_ expression: ExprSyntax) throws(ModelError) -> Int {
        guard let literal = expression.as(IntegerLiteralExprSyntax.self),
              let value = Int(literal.literal.text.replacingOccurrences(of: "_", with: "")), value <= Int(Int32.max) else {
            throw source.place(of: expression).error("\(expression.trimmedDescription) is not a count literal (0 to \(Int32.max)); seedgen reads only literals")
        }
        return value
    }

    /// `\Type.property`.
    private func inverse(_ expression: ExprSyntax) throws(ModelError) -> (type: String, property: String) {
        guard let path = expression.as(KeyPathExprSyntax.self), let root = path.root.map(DeclaredType.init),
              case .named(let type) = root, path.components.count == 1,
              let property = Self.propertyName(path.components.first!) else {
            throw source.place(of: expression).error("inverse: \(expression.trimmedDescription) is not a key path `\\Type.property`")
        }
        return (type, property)
    }

    private static func propertyName(_ component: KeyPathComponentSyntax) -> String? {
        guard case .property(let property) = component.component, property.declName.argumentNames == nil,
              property.genericArgumentClause == nil else { return nil }
        return property.declName.baseName.text
    }
}
