import Foundation
import SeedModel
import SwiftSyntax

/// Reads the literal arguments of SwiftData's macros (`@Attribute`, `@Relationship`, `#Unique`,
/// `#Index`). What is not a literal is refused at its
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
                case "spotlight": options.isIndexedBySpotlight = true
                case "allowsCloudEncryption": options.allowsCloudEncryption = true
                case "transformable":
                    throw source.place(of: argument).error("@Attribute(.transformable(by:)): the stored bytes are what the app's ValueTransformer makes, which seedgen cannot run; store the value as Data or a Codable type")
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

    private func arguments(of node: AttributeSyntax) -> LabeledExprListSyntax {
        if case .argumentList(let list) = node.arguments { return list }
        return []
    }

    /// `.name` (or `Schema.Attribute.Option.name`, `.transformable(by: T.self)`): the option's name.
    private func optionName(_ expression: ExprSyntax) throws(ModelError) -> String {
        if let call = expression.as(FunctionCallExprSyntax.self), let member = call.calledExpression.as(MemberAccessExprSyntax.self) {
            return member.declName.baseName.text
        }
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

    /// `\Type.property`, `\SchemaV1.Child.parent` (the root type may be qualified: the parser
    /// reads `\A.B.c` as the root `A` and the components `B`, `c`, so every component but the
    /// last joins the root).
    private func inverse(_ expression: ExprSyntax) throws(ModelError) -> (type: DeclaredType, property: String) {
        guard let path = expression.as(KeyPathExprSyntax.self), let root = path.root.map(DeclaredType.init),
              case .named(var type) = root, let last = path.components.last,
              let property = Self.propertyName(last) else {
            throw source.place(of: expression).error("inverse: \(expression.trimmedDescription) is not a key path `\\Type.property`")
        }
        for component in path.components.dropLast() {
            guard let name = Self.propertyName(component) else {
                throw source.place(of: expression).error("inverse: \(expression.trimmedDescription) is not a key path `\\Type.property`")
            }
            type += "." + name
        }
        return (.named(type), property)
    }

    private static func propertyName(_ component: KeyPathComponentSyntax) -> String? {
        guard case .property(let property) = component.component, property.declName.argumentNames == nil,
              property.genericArgumentClause == nil else { return nil }
        return property.declName.baseName.text
    }
}
