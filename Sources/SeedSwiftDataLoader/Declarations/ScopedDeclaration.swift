import SeedModel

/// A declaration that Swift names by its enclosing types: a `@Model` class, a struct or enum, a
/// `VersionedSchema`.
protocol ScopedDeclaration {
    var name: String { get }
    var scope: [String] { get }
    var place: SourcePlace { get }
}

extension ScopedDeclaration {
    /// `Outer.Name`, or `Name` at the top level.
    var qualifiedName: String { (scope + [name]).joined(separator: ".") }
}

extension Array where Element: ScopedDeclaration {
    /// The declaration `name` (`Trip`, `SchemaV1.Trip`) means, seen from inside `scope`, as Swift
    /// finds it: the one declared in `scope` or the nearest scope enclosing it, else the only one
    /// of that name anywhere; nil when there is none. Several equally near are refused at `place`
    /// (or, without one, naming `file`).
    func resolve(_ name: String, from scope: [String], kind: String, place: SourcePlace?, file: String) throws(ModelError) -> Element? {
        let candidates = filter { $0.qualifiedName == name || $0.qualifiedName.hasSuffix("." + name) }
        if candidates.count <= 1 { return candidates.first }
        for depth in stride(from: scope.count, through: 0, by: -1) {
            let qualified = ([String](scope.prefix(depth)) + [name]).joined(separator: ".")
            if let near = candidates.first(where: { $0.qualifiedName == qualified }) { return near }
        }
        let places = candidates.map { "\($0.qualifiedName) at \($0.place)" }.joined(separator: ", ")
        let message = "'\(name)' may mean several \(kind) (\(places)); name it with its enclosing type"
        throw place?.error(message) ?? ModelError(file: file, line: nil, message: message)
    }
}
