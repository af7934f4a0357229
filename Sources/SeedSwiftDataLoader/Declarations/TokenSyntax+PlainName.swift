import SwiftSyntax

extension TokenSyntax {
    /// The name a token spells, without the backticks that let a keyword be one (`` `class` ``).
    var plainName: String { identifier?.name ?? text }
}
