import SeedModel
import SeedStore

extension Carriage {
    /// Where one destination join table takes its links: the source's links of its named
    /// relationship, or, when that relationship is new, of its kept inverse (`flipped`: holder
    /// and linked side swapped), as Core Data's inferred mapping carries the kept side and so
    /// sets the new one (a to-one made a to-many whose inverse keeps its name). A relationship
    /// that was a to-one gives its links from its foreign-key column.
    struct JoinTableSource: Equatable {
        /// The source's links, in the table as the migration reads it (parked).
        let links: SourceLinks
        /// Each destination column filled, in order: the two sides, then each position the
        /// source holds for its side.
        let columns: [String]
        /// The column of `links.table` each of `columns` takes its values from.
        let sourceColumns: [String]
    }

    /// The source of each destination join table that takes links, by its name.
    static func joinTableSources(_ plan: MigrationPlan, source: StoreLayout, destination: StoreLayout, parked: [String: String]) -> [String: JoinTableSource] {
        var sources: [String: JoinTableSource] = [:]
        for join in destination.joinTables {
            let found: (links: SourceLinks, flipped: Bool)?
            if let (origin, previous) = sourceRelationship(join.relationship, declaredBy: join.entity, plan: plan, destination: destination) {
                found = SourceLinks(of: previous, of: origin, in: source, table: { parked[$0] }).map { ($0, false) }
            } else if let relationship = destination.relationship(join.relationship, of: join.entity), let inverse = relationship.inverseName,
                      let (origin, previous) = sourceRelationship(inverse, declaredBy: relationship.destinationEntity, plan: plan, destination: destination) {
                found = SourceLinks(of: previous, of: origin, in: source, table: { parked[$0] }).map { ($0, true) }
            } else {
                found = nil
            }
            guard let (links, flipped) = found else { continue }
            var columns = [join.firstColumn, join.secondColumn]
            var sourceColumns = flipped ? [links.linked, links.holder] : [links.holder, links.linked]
            for ordering in join.orderings {
                guard let kept = links.orders[flipped ? !ordering.ordersFirstSide : ordering.ordersFirstSide] else { continue }
                columns.append(ordering.column)
                sourceColumns.append(kept)
            }
            sources[join.name] = JoinTableSource(links: links, columns: columns, sourceColumns: sourceColumns)
        }
        return sources
    }

    /// The source entity and name of destination relationship `name` declared by `owner`: from
    /// the first entity of `owner`'s subtree that took a source entity's rows and kept it.
    private static func sourceRelationship(_ name: String, declaredBy owner: String, plan: MigrationPlan,
                                           destination: StoreLayout) -> (entity: String, relationship: String)? {
        guard let declaring = destination.model.entity(named: owner) else { return nil }
        for step in plan.entities {
            guard let origin = step.source, let entity = destination.model.entity(named: step.name),
                  destination.model.entity(entity, isKindOf: declaring),
                  let previous = step.properties.first(where: { $0.name == name && $0.change != .removed })?.source else { continue }
            return (origin, previous)
        }
        return nil
    }

    /// The lists of each to-many the plan makes ordered, once each, where their positions are
    /// kept: the inverse to-one's order column, or the join table's position of that side.
    static func newlyOrderedLists(_ plan: MigrationPlan, destination: StoreLayout) -> [OrderedListNumbering.Columns] {
        var lists: [OrderedListNumbering.Columns] = [], seen: Set<String> = []
        for step in plan.entities {
            guard let entity = destination.model.entity(named: step.name) else { continue }
            for property in step.properties {
                guard case .reshaped(let reshaping) = property.change, reshaping.ordering == .ordered,
                      let relationship = destination.model.allRelationships(of: entity).first(where: { $0.name == property.name }) else { continue }
                let list: OrderedListNumbering.Columns
                if let inverse = relationship.inverseName, let columns = destination.toOneColumns(for: inverse, of: relationship.destinationEntity),
                   let order = columns.order, let table = destination.entity(named: relationship.destinationEntity)?.table {
                    list = .init(table: table, holder: columns.key, member: "Z_PK", position: order)
                } else if let (join, isFirst) = destination.joinTableSide(for: relationship.name, of: step.name),
                          let ordering = join.orderings.first(where: { $0.ordersFirstSide != isFirst }) {
                    list = .init(table: join.name, holder: ordering.holderColumn, member: ordering.ordersFirstSide ? join.firstColumn : join.secondColumn, position: ordering.column)
                } else {
                    continue
                }
                if seen.insert("\(list.table).\(list.position)").inserted { lists.append(list) }
            }
        }
        return lists
    }

    /// A reference that may point at a row gone from the table it points into (`thinnedTables`):
    /// where it does, its columns become NULL, as Core Data's nullify leaves them.
    struct ClearedReference: Equatable {
        /// The table holding the reference.
        let table: String
        /// The column of the referenced `Z_PK`.
        let key: String
        /// The reference's other columns, cleared with it (its entity number and position).
        let companions: [String]
        /// The table it points into.
        let target: String

        /// Every column the reference keeps: its key first.
        var columns: [String] { [key] + companions }
    }

    /// A join table whose sides point into `first` and `second`, one of them thinned: its links
    /// to rows gone from either go.
    struct ThinnedJoin: Equatable {
        /// One side: the table its objects are in, and the join table's column holding them.
        struct Side: Equatable {
            let table: String
            let column: String
        }

        let table: String
        let first: Side
        let second: Side
    }

    /// The references and join tables that may point at rows a thinned table no longer holds.
    static func danglingCandidates(destination: StoreLayout, thinned: Set<String>) -> (references: [ClearedReference], joins: [ThinnedJoin]) {
        guard !thinned.isEmpty else { return ([], []) }
        var references: [ClearedReference] = [], joins: [ThinnedJoin] = []
        for table in destination.tables {
            for column in table.columns {
                guard case .foreignKey(let owner, let relationship, let target) = column.role,
                      let targetTable = destination.entity(named: target)?.table, thinned.contains(targetTable),
                      let columns = destination.toOneColumns(for: relationship, of: owner) else { continue }
                references.append(ClearedReference(table: table.name, key: columns.key, companions: [columns.entity, columns.order].compactMap { $0 }, target: targetTable))
            }
        }
        for join in destination.joinTables {
            guard let relationship = destination.relationship(join.relationship, of: join.entity),
                  let first = destination.entity(named: join.entity)?.table, let second = destination.entity(named: relationship.destinationEntity)?.table,
                  thinned.contains(first) || thinned.contains(second) else { continue }
            joins.append(ThinnedJoin(table: join.name, first: .init(table: first, column: join.firstColumn), second: .init(table: second, column: join.secondColumn)))
        }
        return (references, joins)
    }
}
