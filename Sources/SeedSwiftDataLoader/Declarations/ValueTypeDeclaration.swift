import SeedModel

/// A struct or enum the sources declare, which a `@Model` property may store as a Composite.
struct ValueTypeDeclaration: ScopedDeclaration {
    /// What the type is made of.
    enum Kind {
        /// A struct's stored properties, in declaration order.
        case structure([PropertyDeclaration])
        /// An enum: the first type it inherits (its raw type when that is `String`, `Int`, …), its cases, and whether any case carries values.
        case enumeration(rawType: String?, cases: [EnumCaseDeclaration], carriesValues: Bool)
        /// A struct whose properties the reader does not understand (an error only if a model stores it).
        case unreadable(ModelError)
    }

    /// One case of an enum: its name, and its raw value when the source gives one.
    struct EnumCaseDeclaration {
        var name: String
        /// `case rocks = "Rocks"`: the literal's value as text (`Rocks`, `-2`, `1.5`); nil when the
        /// case gives none, or gives one that is not a literal (`rawValueIsLiteral` false).
        var rawLiteral: String?
        var rawValueIsLiteral: Bool
        var place: SourcePlace
    }

    var name: String
    var scope: [String]
    var place: SourcePlace
    var kind: Kind
}
