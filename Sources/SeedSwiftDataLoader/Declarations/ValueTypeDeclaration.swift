import SeedModel

/// A type the sources declare other than a `@Model` class: a struct or enum a property may
/// store as a Composite, or a class, actor or protocol, which only shadows names.
struct ValueTypeDeclaration: ScopedDeclaration {
    /// What the type is made of.
    enum Kind {
        /// A struct's stored properties, in declaration order.
        case structure([PropertyDeclaration])
        /// An enum: the first type it inherits (its raw type when that is `String`, `Int`, …) and its cases.
        case enumeration(rawType: DeclaredType?, cases: [EnumCaseDeclaration])
        /// A class that is no `@Model`, an actor or a protocol (the keyword).
        case other(String)
    }

    /// One case of an enum: its name, its raw value, and the values it carries.
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

        /// One associated value: its label (nil when unlabelled) and type.
        struct AssociatedValue {
            var label: String?
            var type: DeclaredType
            var place: SourcePlace
        }

        var name: String
        var rawValue: RawValue
        var place: SourcePlace
        /// `case custom(String)`: the values it carries; nil for a case that carries none.
        var associatedValues: [AssociatedValue]?
    }

    var name: String
    var context: [ScopeStep]
    var place: SourcePlace
    var kind: Kind
    /// Its generic parameters' names (`UserInfoStorage<Anchor>`).
    var genericParameters: [String] = []
    /// Why it cannot be stored, if it cannot (its member not understood, or under an unknown `#if`).
    var failure: ModelError?
}
