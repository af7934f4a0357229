import SeedModel
import SeedStore

extension Carriage {
    /// Where every column of every destination entity that takes a source entity's rows takes
    /// its values from; `table` names a source table as the copy finds it (aside, or kept).
    static func columnSources(_ plan: MigrationPlan, source: StoreLayout, destination: StoreLayout, path: String,
                              table: (String) -> String?) throws(MigrationError) -> [Place: ColumnSource] {
        var sources: [Place: ColumnSource] = [:]
        for step in plan.entities {
            guard let origin = step.source, let old = source.entity(named: origin), let new = destination.entity(named: step.name),
                  let layout = destination.table(named: new.table) else { continue }
            for column in lineageColumns(of: step.name, in: layout, destination: destination) {
                let found = try columnSource(column, of: step, from: old, plan: plan, source: source, destination: destination, path: path, table: table)
                sources[Place(entity: step.name, column: column.name)] = found
            }
        }
        return sources
    }

    /// Where destination `column` of `step`'s entity takes its values from, for rows of `old`.
    private static func columnSource(_ column: ColumnLayout, of step: MigrationPlan.EntityStep, from old: EntityLayout, plan: MigrationPlan,
                                     source: StoreLayout, destination: StoreLayout, path: String, table: (String) -> String?) throws(MigrationError) -> ColumnSource {
        func property(_ name: String) -> MigrationPlan.PropertyStep? {
            step.properties.first { $0.name == name && $0.change != .removed }
        }
        switch column.role {
        case .attribute(let owner, let name, _):
            guard let property = property(name) else { return .none }
            let sourceColumn = property.source.flatMap { source.column(for: $0, of: old.name) }
            let isAdded = if case .added = property.change { true } else { false }
            // Rows take the model's default: all of them (added), or those holding no value (made required).
            guard isAdded || property.change.filledDefault != nil else { return sourceColumn.map(ColumnSource.column) ?? .none }
            guard let attribute = destination.model.entity(named: owner)?.storedAttribute(named: name) else { return .none }
            let value: SQLValue?
            do {
                value = try attribute.storedDefaultValue()
            } catch {
                throw MigrationError(.notCarriedOut(subject: "\(owner).\(name)"), "\(path): \(owner).\(name): \(error)")
            }
            guard let value else { return .none }
            if isAdded { return .defaultValue(value) }
            return sourceColumn.map { .columnOrDefault($0, value) } ?? .defaultValue(value)
        case .foreignKey(_, let name, _):
            if let links = inverseLinks(of: name, in: step, plan: plan, source: source, destination: destination, table: table) {
                return .linkedKey(.inverse(links))
            }
            return property(name)?.source.flatMap { linkedKey(of: $0, of: old, source: source, table: table) }.map { key in
                switch key {
                case .column(let name): .column(name)
                case .linked(let object): .linkedKey(object)
                }
            } ?? .none
        case .foreignEntity(_, let name):
            if let links = inverseLinks(of: name, in: step, plan: plan, source: source, destination: destination, table: table),
               let relationship = destination.relationship(name, of: step.name),
               let holder = plan.entities.first(where: { $0.name == relationship.destinationEntity })?.source,
               let holderTable = source.entity(named: holder)?.table {
                return .entityOfRow(table: holderTable, key: .linked(.inverse(links)))
            }
            guard let previous = property(name)?.source, let key = linkedKey(of: previous, of: old, source: source, table: table) else { return .none }
            if let entity = source.toOneColumns(for: previous, of: old.name)?.entity { return .renumbered(entity) }
            // The source's destination had no sub-entities: its rows' entity, looked up.
            guard let target = source.relationship(previous, of: old.name).flatMap({ source.entity(named: $0.destinationEntity) }) else { return .none }
            return .entityOfRow(table: target.table, key: key)
        case .foreignOrder(let owner, let name):
            guard let previous = property(name)?.source else { return .none }
            if let columns = source.toOneColumns(for: previous, of: old.name) {
                if let order = columns.order { return .column(order) }
                // The inverse became ordered: numbered as the rows are copied when these are the
                // only rows holding the to-one (else `RowTransfer.numberNewlyOrdered` numbers them).
                let alone = destination.model.entity(named: owner).map { destination.model.subentities(of: $0).isEmpty } ?? false
                return alone ? .numberedInline(key: .column(columns.key)) : .none
            }
            guard let links = SourceLinks(of: previous, of: old.name, in: source, table: table), let order = links.orders[true] else { return .none }
            return .linkedPosition(links, column: order)
        case .ownerKey:
            return .none  // Never reached: a migration refuses such a layout first (`StoreMigrator`).
        }
    }

    /// Where a destination to-one taking over source relationship `previous` of `old` finds its
    /// linked object's key: a source to-one's key column; a to-many made to-one's only link.
    private static func linkedKey(of previous: String, of old: EntityLayout, source: StoreLayout, table: (String) -> String?) -> ColumnSource.KeySource? {
        if let columns = source.toOneColumns(for: previous, of: old.name) { return .column(columns.key) }
        return SourceLinks(of: previous, of: old.name, in: source, table: table).map { .linked(.onlyLink($0)) }
    }

    /// Where an added to-one `name` of `step`'s entity takes its links from: its inverse, a
    /// to-many the destination entity took over from a source relationship, seen from that
    /// source relationship's side (`holder` the inverse's objects, `linked` this entity's). As
    /// Core Data's inferred mapping carries the kept to-many and so sets its inverse. Nil when
    /// the to-one is not added, or its inverse is new too or ordered.
    static func inverseLinks(of name: String, in step: MigrationPlan.EntityStep, plan: MigrationPlan, source: StoreLayout, destination: StoreLayout,
                             table: (String) -> String?) -> SourceLinks? {
        guard case .added? = step.properties.first(where: { $0.name == name })?.change,
              let relationship = destination.relationship(name, of: step.name), !relationship.isToMany,
              let inverse = relationship.inverseName,
              let inverseRelationship = destination.relationship(inverse, of: relationship.destinationEntity), !inverseRelationship.isOrdered,
              let holderStep = plan.entities.first(where: { $0.name == relationship.destinationEntity }), let origin = holderStep.source,
              let previous = holderStep.properties.first(where: { $0.name == inverse && $0.change != .removed && $0.change != .refused })?.source else { return nil }
        return SourceLinks(of: previous, of: origin, in: source, table: table)
    }
}
