import SwiftSyntax

/// A property's type as the source spells it, reduced to what decides its stored form.
indirect enum DeclaredType: Equatable, CustomStringConvertible {
    /// A named type: `String`, `Color.Resolved` (`Swift.` and `Foundation.` dropped).
    case named(String)
    /// `T?`, `T!` or `Optional<T>`.
    case optional(DeclaredType)
    /// `[T]` or `Array<T>`.
    case array(DeclaredType)
    /// Anything else (a dictionary, tuple, function, `some`/`any` type, a generic), as written.
    case other(String)

    /// Reads a type annotation.
    init(_ syntax: TypeSyntax) {
        if let optional = syntax.as(OptionalTypeSyntax.self) {
            self = .optional(DeclaredType(optional.wrappedType))
        } else if let unwrapped = syntax.as(ImplicitlyUnwrappedOptionalTypeSyntax.self) {
            self = .optional(DeclaredType(unwrapped.wrappedType))
        } else if let array = syntax.as(ArrayTypeSyntax.self) {
            self = .array(DeclaredType(array.element))
        } else if let attributed = syntax.as(AttributedTypeSyntax.self), attributed.specifiers.isEmpty {
            self = DeclaredType(attributed.baseType)
        } else if let name = Self.dottedName(syntax) {
            self = .named(name)
        } else if let (name, argument) = Self.genericOfOne(syntax), ["Optional", "Array"].contains(name) {
            self = name == "Optional" ? .optional(DeclaredType(argument)) : .array(DeclaredType(argument))
        } else {
            self = .other(syntax.trimmedDescription)
        }
    }

    /// `A.B.C` without generic arguments, module prefixes dropped; nil for anything else.
    private static func dottedName(_ syntax: TypeSyntax) -> String? {
        if let identifier = syntax.as(IdentifierTypeSyntax.self), identifier.genericArgumentClause == nil {
            return identifier.name.text
        }
        if let member = syntax.as(MemberTypeSyntax.self), member.genericArgumentClause == nil,
           let base = dottedName(member.baseType) {
            return ["Swift", "Foundation"].contains(base) ? member.name.text : base + "." + member.name.text
        }
        return nil
    }

    /// `Name<T>` (or `Swift.Name<T>`): the name and its one argument.
    private static func genericOfOne(_ syntax: TypeSyntax) -> (String, TypeSyntax)? {
        let name: String
        let clause: GenericArgumentClauseSyntax?
        if let identifier = syntax.as(IdentifierTypeSyntax.self) {
            (name, clause) = (identifier.name.text, identifier.genericArgumentClause)
        } else if let member = syntax.as(MemberTypeSyntax.self), dottedName(member.baseType) == "Swift" {
            (name, clause) = (member.name.text, member.genericArgumentClause)
        } else {
            return nil
        }
        guard let arguments = clause?.arguments, arguments.count == 1,
              case .type(let type) = arguments.first!.argument else { return nil }
        return (name, type)
    }

    /// The type with one level of optional taken off, and whether there was one.
    var unwrapped: (type: DeclaredType, isOptional: Bool) {
        if case .optional(let wrapped) = self { return (wrapped, true) }
        return (self, false)
    }

    var description: String {
        switch self {
        case .named(let name): name
        case .optional(let wrapped): "\(wrapped)?"
        case .array(let element): "[\(element)]"
        case .other(let text): text
        }
    }
}
