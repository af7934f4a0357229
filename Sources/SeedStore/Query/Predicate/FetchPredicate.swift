/// A parsed NSPredicate format string, as fetch request templates hold them.
///
/// Made by `FetchPredicate(parsing:)`; `SeedStore` compiles it to SQL on Core Data's layout.
public indirect enum FetchPredicate: Sendable, Hashable {
    /// `TRUEPREDICATE` / `FALSEPREDICATE`.
    case constant(Bool)
    /// All must hold.
    case and([FetchPredicate])
    /// One must hold.
    case or([FetchPredicate])
    /// Must not hold.
    case not(FetchPredicate)
    /// `left op right`, possibly over a to-many (`ANY`, `ALL`, `NONE`).
    case comparison(PredicateComparison)
}

extension FetchPredicate {
    /// The names of the `$VARIABLES` used, sorted.
    public var variableNames: [String] {
        var names = Set<String>()
        func visit(_ expression: PredicateExpression) {
            switch expression {
            case .variable(let name, _): names.insert(name)
            case .aggregate(let items): items.forEach(visit)
            default: break
            }
        }
        func visit(_ predicate: FetchPredicate) {
            switch predicate {
            case .constant: break
            case .and(let terms), .or(let terms): terms.forEach(visit)
            case .not(let inner): visit(inner)
            case .comparison(let comparison):
                visit(comparison.left)
                visit(comparison.right)
            }
        }
        visit(self)
        return names.sorted()
    }
}
