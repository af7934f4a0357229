import SeedModel

/// One step of the lexical context a declaration is written in: a type's body, or (at the top
/// of a file) an extension's, whose type is resolved once every file is read.
enum ScopeStep: Equatable {
    case type(String)
    case extended(DeclaredType)
}

/// A declaration that Swift names by where it is written: a `@Model` class, a struct, enum or
/// other type, a typealias, a `VersionedSchema`, a `SchemaMigrationPlan`.
protocol ScopedDeclaration {
    var name: String { get }
    /// Where it is written, outermost first.
    var context: [ScopeStep] { get }
    var place: SourcePlace { get }
    /// Why it cannot be used, if it cannot (read only when something uses it).
    var failure: ModelError? { get }
}

/// `typealias Name = Target`.
struct TypeAliasDeclaration: ScopedDeclaration {
    var name: String
    var context: [ScopeStep]
    var place: SourcePlace
    var target: DeclaredType
    var failure: ModelError?
}
