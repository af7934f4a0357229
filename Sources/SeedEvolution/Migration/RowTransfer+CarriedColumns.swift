import SeedModel
import SeedStore

extension RowTransfer {
    /// The source column of entity `origin` whose values the destination `column` of `step`'s
    /// entity takes as they are, as the plan says: its property kept, or only its optionality
    /// changed (no default filled in, no reshape); nil otherwise.
    static func sourceColumn(of column: ColumnLayout, in step: MigrationPlan.EntityStep, from origin: String, source: StoreLayout) -> String? {
        let name = switch column.role {
        case .attribute(_, let property, _), .foreignKey(_, let property, _), .foreignEntity(_, let property), .foreignOrder(_, let property): property
        }
        guard let property = step.properties.first(where: { $0.name == name && $0.change != .removed }), let previous = property.source,
              property.change.carriesValuesAsTheyAre else { return nil }
        return switch column.role {
        case .attribute, .foreignKey: source.column(for: previous, of: origin)
        case .foreignEntity: source.toOneColumns(for: previous, of: origin)?.entity
        case .foreignOrder: source.toOneColumns(for: previous, of: origin)?.order
        }
    }

    /// `sourceColumn`, where a rebuilt table's copy leaves the values as they are too: not a
    /// reference into a `thinned` table (which may be cleared), not an entity number when
    /// entities are renumbered (`renumbers`), not a position (renumbered where a list becomes
    /// ordered).
    static func carriedColumn(_ column: ColumnLayout, of step: MigrationPlan.EntityStep, from origin: String,
                              source: StoreLayout, destination: StoreLayout, renumbers: Bool, thinned: Set<String>) -> String? {
        switch column.role {
        case .attribute: break
        case .foreignKey(_, _, let target):
            guard let table = destination.entity(named: target)?.table, !thinned.contains(table) else { return nil }
        case .foreignEntity:
            guard !renumbers else { return nil }
        case .foreignOrder:
            return nil
        }
        return sourceColumn(of: column, in: step, from: origin, source: source)
    }
}
