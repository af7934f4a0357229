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

    /// One case of an enum: its name, and the raw value the source gives it.
    struct EnumCaseDeclaration {
        /// What a case says of its raw value.
        enum RawValue {
            /// None: Swift gives it one (`case rocks`).
            case implicit
            /// `case rocks = "Rocks"`: the literal's value as text (`Rocks`, `-2`, `1.5`).
            case literal(String)
            /// An expression that is no literal.
            case notLiteral
        }

        var name: String
        var rawValue: RawValue
        var place: SourcePlace
    }

    var name: String
    var scope: [String]
    var place: SourcePlace
    var kind: Kind
}
