import SwiftSyntax

/// A type as the source spells it, before its names are resolved (`TypeNamespace`).
indirect enum DeclaredType: Equatable, CustomStringConvertible {
    /// A possibly qualified name without generic arguments: `String`, `SchemaV1.Trip`,
    /// `Foundation.Date` (module prefixes are resolved with the rest).
    case named(String)
    /// `Name<A, B>`: a generic type and its arguments (`Set<String>`, `Array<Int>`,
    /// `UserInfoStorage<Anchor>`); `Array`, `Optional`, `Set` and `Dictionary` become Swift's
    /// own only when the name resolves to them.
    case generic(String, [DeclaredType])
    /// `T?` or `T!`.
    case optional(DeclaredType)
    /// `[T]`.
    case array(DeclaredType)
    /// `[K: V]`.
    case dictionary(DeclaredType, DeclaredType)
    /// Anything else (a tuple, a function, `some`/`any`, a composition), as written.
    case other(String)

    /// Reads a type annotation.
    init(_ syntax: TypeSyntax) {
        if let optional = syntax.as(OptionalTypeSyntax.self) {
            self = .optional(DeclaredType(optional.wrappedType))
        } else if let unwrapped = syntax.as(ImplicitlyUnwrappedOptionalTypeSyntax.self) {
            self = .optional(DeclaredType(unwrapped.wrappedType))
        } else if let array = syntax.as(ArrayTypeSyntax.self) {
            self = .array(DeclaredType(array.element))
        } else if let dictionary = syntax.as(DictionaryTypeSyntax.self) {
            self = .dictionary(DeclaredType(dictionary.key), DeclaredType(dictionary.value))
        } else if let attributed = syntax.as(AttributedTypeSyntax.self), attributed.specifiers.isEmpty {
            self = DeclaredType(attributed.baseType)
        } else if let name = Self.dottedName(syntax) {
            self = name.arguments.isEmpty ? .named(name.path) : .generic(name.path, name.arguments)
        } else {
            self = .other(syntax.trimmedDescription)
        }
    }

    /// `A.B.C` or `A.B<T>`: the dotted path and the last component's generic arguments; nil for
    /// anything else (generic arguments inside the path, a non-type argument).
    private static func dottedName(_ syntax: TypeSyntax) -> (path: String, arguments: [DeclaredType])? {
        if let identifier = syntax.as(IdentifierTypeSyntax.self) {
            guard let arguments = typeArguments(identifier.genericArgumentClause) else { return nil }
            return (identifier.name.plainName, arguments)
        }
        if let member = syntax.as(MemberTypeSyntax.self), let base = dottedName(member.baseType), base.arguments.isEmpty,
           let arguments = typeArguments(member.genericArgumentClause) {
            return (base.path + "." + member.name.plainName, arguments)
        }
        return nil
    }

    private static func typeArguments(_ clause: GenericArgumentClauseSyntax?) -> [DeclaredType]? {
        guard let clause else { return [] }
        var found: [DeclaredType] = []
        for argument in clause.arguments {
            guard case .type(let type) = argument.argument else { return nil }
            found.append(DeclaredType(type))
        }
        return found
    }

    /// The type with one level of optional taken off, and whether there was one.
    var unwrapped: (type: DeclaredType, isOptional: Bool) {
        if case .optional(let wrapped) = self { return (wrapped, true) }
        return (self, false)
    }

    /// How deeply the type nests (`[[Int]?]` is 4): bounded before anything recurses over it.
    var depth: Int {
        switch self {
        case .named, .other: 1
        case .optional(let wrapped), .array(let wrapped): 1 + wrapped.depth
        case .dictionary(let key, let value): 1 + max(key.depth, value.depth)
        case .generic(_, let arguments): 1 + (arguments.map(\.depth).max() ?? 0)
        }
    }

    var description: String {
        switch self {
        case .named(let name): name
        case .generic(let name, let arguments): "\(name)<\(arguments.map(\.description).joined(separator: ", "))>"
        case .optional(let wrapped): "\(wrapped)?"
        case .array(let element): "[\(element)]"
        case .dictionary(let key, let value): "[\(key): \(value)]"
        case .other(let text): text
        }
    }
}
