import SeedModel
import SeedStore

extension RowTransfer {
    /// Copies each many-to-many's links from the source's join table into the destination's,
    /// each side into the column of the entity that took it over, positions with them; a
    /// relationship that was a to-one gives its links from its foreign-key column. When the
    /// relationship the join table is named after is new, its inverse, kept, gives the links
    /// (as Core Data's inferred mapping carries the kept side and so sets the new one: a to-one
    /// made a to-many whose inverse keeps its name).
    func copyJoinTables() throws {
        for join in destination.joinTables {
            guard let (links, flipped) = joinTableLinks(join) else { continue }
            let (first, second) = flipped ? (links.linked, links.holder) : (links.holder, links.linked)
            var columns = [join.firstColumn, join.secondColumn], values = ["l." + Database.quote(first), "l." + Database.quote(second)]
            for ordering in join.orderings {
                guard let kept = links.orders[flipped ? !ordering.ordersFirstSide : ordering.ordersFirstSide] else { continue }
                columns.append(ordering.column)
                values.append("l." + Database.quote(kept))
            }
            try database.execute("INSERT INTO \(Database.quote(join.name)) (\(columns.map(Database.quote).joined(separator: ", "))) SELECT \(values.joined(separator: ", ")) \(links.rows)")
        }
    }

    /// Where the links of destination join table `join` come from in the source: its named
    /// relationship's links, or (`flipped`: holder and linked side swapped) its inverse's.
    private func joinTableLinks(_ join: JoinTableLayout) -> (links: SourceLinks, flipped: Bool)? {
        if let (origin, previous) = sourceRelationship(join.relationship, declaredBy: join.entity) {
            return SourceLinks(of: previous, of: origin, in: source, table: { parked[$0] }).map { ($0, false) }
        }
        guard let relationship = destination.relationship(join.relationship, of: join.entity), let inverse = relationship.inverseName,
              let (origin, previous) = sourceRelationship(inverse, declaredBy: relationship.destinationEntity) else { return nil }
        return SourceLinks(of: previous, of: origin, in: source, table: { parked[$0] }).map { ($0, true) }
    }

    /// The source entity and name of destination relationship `name` declared by `owner`: from
    /// the first entity of `owner`'s subtree that took a source entity's rows and kept it.
    private func sourceRelationship(_ name: String, declaredBy owner: String) -> (entity: String, relationship: String)? {
        guard let declaring = destination.model.entity(named: owner) else { return nil }
        for step in plan.entities {
            guard let origin = step.source, let entity = destination.model.entity(named: step.name),
                  destination.model.entity(entity, isKindOf: declaring),
                  let previous = step.properties.first(where: { $0.name == name && $0.change != .removed })?.source else { continue }
            return (origin, previous)
        }
        return nil
    }

    /// Gives the links of each to-many that became ordered their positions, as Core Data
    /// stores them (2048, 3072, …), in `Z_PK` order of the linked objects (the order Core Data
    /// picks is not known: *assumed*).
    func numberNewlyOrdered() throws {
        var done: Set<String> = []
        for step in plan.entities {
            guard let entity = destination.model.entity(named: step.name) else { continue }
            for property in step.properties {
                guard case .reshaped(let reshaping) = property.change, reshaping.ordering == .ordered,
                      let relationship = destination.model.allRelationships(of: entity).first(where: { $0.name == property.name }) else { continue }
                let place: (table: String, holder: String, member: String, column: String)
                if let inverse = relationship.inverseName, let columns = destination.toOneColumns(for: inverse, of: relationship.destinationEntity),
                   let order = columns.order, let table = destination.entity(named: relationship.destinationEntity)?.table {
                    place = (table, columns.key, "Z_PK", order)
                } else if let (join, isFirst) = destination.joinTableSide(for: relationship.name, of: step.name),
                          let ordering = join.orderings.first(where: { $0.ordersFirstSide != isFirst }) {
                    place = (join.name, ordering.holderColumn, ordering.ordersFirstSide ? join.firstColumn : join.secondColumn, ordering.column)
                } else {
                    continue
                }
                guard done.insert("\(place.table).\(place.column)").inserted else { continue }
                let (table, holder, column) = (Database.quote(place.table), Database.quote(place.holder), Database.quote(place.column))
                // Numbered as the rows were copied already (`RowTransfer.expression`), or not.
                guard try database.scalar("SELECT EXISTS (SELECT 1 FROM \(table) WHERE \(holder) IS NOT NULL AND \(column) IS NULL)")?.integer == 1 else { continue }
                let list = OrderedListNumbering.Columns(table: place.table, holder: place.holder, member: place.member, position: place.column)
                try OrderedListNumbering(database: database).renumber(list, lists: .all)
            }
        }
    }

    /// After entities were removed or moved out of a hierarchy: to-ones pointing at rows that
    /// are gone from the table they point into become NULL, join-table links to them go (as
    /// Core Data's nullify would leave them). Only tables that took rows from a source table
    /// whose rows did not all go to one table are looked at.
    func clearDanglingReferences() throws {
        let thinned = carriage.thinnedTables
        guard !thinned.isEmpty else { return }
        func thinnedTable(of entity: String) -> String? {
            destination.entity(named: entity).map(\.table).flatMap { thinned.contains($0) ? $0 : nil }
        }
        for table in destination.tables {
            for column in table.columns {
                guard case .foreignKey(let owner, let relationship, let target) = column.role, let targetTable = thinnedTable(of: target),
                      let columns = destination.toOneColumns(for: relationship, of: owner) else { continue }
                let cleared = ([columns.key] + [columns.entity, columns.order].compactMap { $0 }).map { "\(Database.quote($0)) = NULL" }
                try database.execute("UPDATE \(Database.quote(table.name)) SET \(cleared.joined(separator: ", ")) WHERE \(Database.quote(columns.key)) IS NOT NULL "
                                     + "AND NOT EXISTS (SELECT 1 FROM \(Database.quote(targetTable)) AS t WHERE t.Z_PK = \(Database.quote(table.name)).\(Database.quote(columns.key)))")
            }
        }
        for join in destination.joinTables {
            guard let relationship = destination.model.entity(named: join.entity).flatMap({ destination.model.allRelationships(of: $0).first { $0.name == join.relationship } }),
                  let first = destination.entity(named: join.entity)?.table, let second = destination.entity(named: relationship.destinationEntity)?.table,
                  thinned.contains(first) || thinned.contains(second) else { continue }
            let name = Database.quote(join.name)
            try database.execute("DELETE FROM \(name) WHERE NOT EXISTS (SELECT 1 FROM \(Database.quote(first)) AS t WHERE t.Z_PK = \(name).\(Database.quote(join.firstColumn))) "
                                 + "OR NOT EXISTS (SELECT 1 FROM \(Database.quote(second)) AS t WHERE t.Z_PK = \(name).\(Database.quote(join.secondColumn)))")
        }
    }

    /// `Z_PRIMARYKEY` for the destination: a row per entity in its numbering; a root's `Z_MAX`
    /// never below what the source roots whose rows it took held, nor below its highest `Z_PK`
    /// (object IDs are URIs that apps keep: a new object must never take an old one's). An
    /// entity that takes over a source entity of another name keeps the name that entity's row
    /// held, as Core Data's migration leaves it (CoreDataPlus's SampleModel V1 → V2 store:
    /// `LuxuryCar`, renamed from `ExpensiveSportCar`, under `Z_NAME` `ExpensiveSportCar`).
    func rewritePrimaryKeys() throws {
        // The source's rows by entity number (a name may be an older one): its name and Z_MAX.
        var stored: [Int: (name: String, max: Int64)] = [:]
        for row in try database.rows("SELECT Z_ENT, Z_NAME, Z_MAX FROM Z_PRIMARYKEY") {
            if let number = row[0].integer, let name = row[1].text { stored[Int(number)] = (name, row[2].integer ?? 0) }
        }
        func storedRow(of sourceEntity: String) -> (name: String, max: Int64)? {
            source.entity(named: sourceEntity).flatMap { stored[$0.number] }
        }
        let sourceOf = Dictionary(plan.entities.compactMap { step in step.source.map { (step.name, $0) } }, uniquingKeysWith: { first, _ in first })
        try database.execute("DELETE FROM Z_PRIMARYKEY")
        let insert = try database.prepare("INSERT INTO Z_PRIMARYKEY (Z_ENT, Z_NAME, Z_SUPER, Z_MAX) VALUES (?, ?, ?, ?)")
        for entity in destination.entities {
            let origin = sourceOf[entity.name]
            var max = origin.flatMap(storedRow(of:))?.max ?? 0
            if entity.superNumber == 0 {
                for member in destination.entities where member.table == entity.table {
                    guard let old = sourceOf[member.name].flatMap({ source.model.entity(named: $0) }) else { continue }
                    max = Swift.max(max, storedRow(of: source.model.root(of: old).name)?.max ?? 0)
                }
                max = Swift.max(max, try database.scalar("SELECT IFNULL(MAX(Z_PK), 0) FROM \(Database.quote(entity.table))")?.integer ?? 0)
            }
            let name = origin.flatMap { $0 == entity.name ? nil : storedRow(of: $0)?.name } ?? entity.name
            try insert.bind([.integer(Int64(entity.number)), .text(name), .integer(Int64(entity.superNumber)), .integer(max)])
            try insert.run()
        }
    }
}
