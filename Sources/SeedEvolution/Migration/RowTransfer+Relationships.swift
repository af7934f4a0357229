import SeedModel
import SeedStore

extension RowTransfer {
    /// Copies each many-to-many's links from the source into the destination's join table, as
    /// the carriage says (`Carriage.JoinTableSource`).
    func copyJoinTables() throws {
        for name in destination.joinTables.map(\.name) {
            guard let join = carriage.joinTables[name] else { continue }
            let values = join.sourceColumns.map { "l." + Database.quote($0) }
            try database.execute("INSERT INTO \(Database.quote(name)) (\(join.columns.map(Database.quote).joined(separator: ", "))) SELECT \(values.joined(separator: ", ")) \(join.links.rows)")
        }
    }

    /// Gives the links of each to-many that became ordered (`Carriage.newlyOrdered`) their
    /// positions, as Core Data stores them (2048, 3072, …), in `Z_PK` order of the linked
    /// objects (the order Core Data picks is not known: *assumed*).
    func numberNewlyOrdered() throws {
        for list in carriage.newlyOrdered {
            let (table, holder, column) = (Database.quote(list.table), Database.quote(list.holder), Database.quote(list.position))
            // Numbered as the rows were copied already (`RowTransfer.expression`), or not.
            guard try database.scalar("SELECT EXISTS (SELECT 1 FROM \(table) WHERE \(holder) IS NOT NULL AND \(column) IS NULL)")?.integer == 1 else { continue }
            try OrderedListNumbering(database: database).renumber(list, lists: .all)
        }
    }

    /// After entities were removed or moved out of a hierarchy: to-ones pointing at rows that
    /// are gone from the table they point into become NULL, join-table links to them go (as
    /// Core Data's nullify would leave them): the carriage's `clearedReferences` and
    /// `thinnedJoins`.
    func clearDanglingReferences() throws {
        for reference in carriage.clearedReferences {
            let (table, key) = (Database.quote(reference.table), Database.quote(reference.key))
            let cleared = reference.columns.map { "\(Database.quote($0)) = NULL" }
            try database.execute("UPDATE \(table) SET \(cleared.joined(separator: ", ")) WHERE \(key) IS NOT NULL "
                                 + "AND NOT EXISTS (SELECT 1 FROM \(Database.quote(reference.target)) AS t WHERE t.Z_PK = \(table).\(key))")
        }
        for join in carriage.thinnedJoins {
            let name = Database.quote(join.table)
            try database.execute("DELETE FROM \(name) WHERE NOT EXISTS (SELECT 1 FROM \(Database.quote(join.first.table)) AS t WHERE t.Z_PK = \(name).\(Database.quote(join.first.column))) "
                                 + "OR NOT EXISTS (SELECT 1 FROM \(Database.quote(join.second.table)) AS t WHERE t.Z_PK = \(name).\(Database.quote(join.second.column)))")
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
