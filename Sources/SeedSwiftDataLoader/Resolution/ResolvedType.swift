/// A property's type with every name resolved as Swift resolves it (`TypeNamespace`).
indirect enum ResolvedType: Equatable {
    /// A standard type SwiftData stores natively (`StandardTypes`), by its written name.
    case standard(String)
    /// A `@Model` class of the sources (its index).
    case model(Int)
    /// A struct, enum or other type of the sources (its index).
    case value(Int)
    case optional(ResolvedType)
    case array(ResolvedType)
    case set(ResolvedType)
    case dictionary(ResolvedType, ResolvedType)
    /// A name that is neither a type of the sources nor a standard type seedgen knows (a
    /// framework's type), as written.
    case unknown(String)
    /// A form SwiftData does not store (a tuple, a function, an existential), as written.
    case unsupported(String)

    /// The type with one level of optional taken off, and whether there was one.
    var unwrapped: (type: ResolvedType, isOptional: Bool) {
        if case .optional(let wrapped) = self { return (wrapped, true) }
        return (self, false)
    }
}
