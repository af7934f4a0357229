import SeedModel

/// A struct or enum the sources declare, which a `@Model` property may store as a Composite.
struct ValueTypeDeclaration: ScopedDeclaration {
    /// What the type is made of.
    enum Kind {
        /// A struct's stored properties, in declaration order.
        case structure([PropertyDeclaration])
        /// An enum: the first type it inherits (its raw type when that is `String`, `Int`, …), its cases, and whether any case carries values.
        case enumeration(rawType: String?, cases: [String], carriesValues: Bool)
        /// A struct whose properties the reader does not understand (an error only if a model stores it).
        case unreadable(ModelError)
    }

    var name: String
    var scope: [String]
    var place: SourcePlace
    var kind: Kind
}
