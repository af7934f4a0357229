import SeedModel
import SeedStore

/// Moves a store's rows from the source version's tables into the destination's, inside the
/// migration's transaction: a table the destination has unchanged is kept (only its entity
/// numbers rewritten); the others are renamed aside (their indexes go with them and serve the
/// copy), the destination's tables are made as a fresh store has them, each destination entity
/// takes the rows of the source entity it succeeds (`Z_PK` and `Z_OPT` kept, `Z_ENT` the
/// destination's number), join tables are copied, the destination's indexes made and the old
/// tables dropped.
struct RowTransfer {
    let database: Database
    /// How each table and column is carried, decided before anything is written.
    let carriage: Carriage
    let path: String
    /// Whether a rebuilt table's indexes may take over its source table's (`adoptIndexes`).
    let adoptsIndexes: Bool

    var plan: MigrationPlan { carriage.plan }
    /// The source version's layout, as the store holds it.
    var source: StoreLayout { carriage.source }
    /// The destination version's layout, in the store's framework era.
    var destination: StoreLayout { carriage.destination }
    /// Source entity name → the destination entity that takes its rows over.
    var successor: [String: String] { carriage.successor }
    /// Each source table's name while the migration runs (its own may be a new table's).
    var parked: [String: String] { carriage.parked }
    /// The tables kept as they are: never parked, copied or rebuilt.
    var kept: Set<String> { carriage.keptTables }

    init(database: Database, carriage: Carriage, path: String, adoptsIndexes: Bool = true) {
        self.database = database
        self.carriage = carriage
        self.path = path
        self.adoptsIndexes = adoptsIndexes
    }

    /// Throws `.notCarriedOut` for a change Core Data infers that this transfer cannot make
    /// with these rows: a to-many made to-one while an object holds several links (which one
    /// Core Data would keep is not known).
    func requireCarriedShapes() throws {
        for entity in plan.entities {
            guard let origin = entity.source else { continue }
            for property in entity.properties {
                guard case .reshaped(let reshaping) = property.change, reshaping.cardinality == .toOne, let previous = property.source,
                      let links = SourceLinks(of: previous, of: origin, in: source) else { continue }
                let holder = Database.quote(links.holder)
                guard let row = try database.rows("SELECT l.\(holder), COUNT(*) \(links.rows) GROUP BY l.\(holder) HAVING COUNT(*) > 1 LIMIT 1").first else { continue }
                throw MigrationError(.notCarriedOut(subject: "\(entity.name).\(property.name)"),
                                     "\(path): \(entity.name).\(property.name) changes to-many → to-one, and the \(origin) object with Z_PK \(row[0].integer ?? 0) holds \(row[1].integer ?? 0) links "
                                     + "(which one a to-one keeps is not known: unlink all but one first); nothing was changed")
            }
        }
    }

    /// Throws `.notCarriedOut` where an added to-one takes its links from its kept inverse
    /// (`inverseLinks`) and an object is linked by several: which one a to-one keeps is not known.
    func requireSingleInverseLinks() throws {
        for step in plan.entities {
            for property in step.properties {
                guard let links = Carriage.inverseLinks(of: property.name, in: step, plan: plan, source: source, destination: destination, table: { $0 }) else { continue }
                let linked = Database.quote(links.linked)
                guard let row = try database.rows("SELECT l.\(linked), COUNT(*) \(links.rows) GROUP BY l.\(linked) HAVING COUNT(*) > 1 LIMIT 1").first else { continue }
                throw MigrationError(.notCarriedOut(subject: "\(step.name).\(property.name)"),
                                     "\(path): \(step.name).\(property.name) is a to-one that takes its links from its inverse, and the \(step.source ?? step.name) object with Z_PK \(row[0].integer ?? 0) "
                                     + "is linked by \(row[1].integer ?? 0) objects (which one a to-one keeps is not known: unlink all but one first); nothing was changed")
            }
        }
    }

    /// Renames aside every source table the destination does not keep (`parked`); their
    /// indexes go with them and serve the copy.
    func parkSourceTables() throws {
        for (name, aside) in parked.sorted(by: { $0.key < $1.key }) {
            try database.execute("ALTER TABLE \(Database.quote(name)) RENAME TO \(Database.quote(aside))")
        }
    }

    /// Makes the destination's tables that are not kept, as a fresh store has them.
    func createTables() throws {
        for table in destination.schema where Self.isModelTable(table) && !kept.contains(where: { table.hasPrefix("CREATE TABLE \($0) ") }) {
            try database.execute(table)
        }
    }

    /// Copies each destination entity's rows out of its parked source table; returns the rows
    /// each took over.
    func copyEntities() throws -> [String: Int] {
        var counts: [String: Int] = [:]
        for step in plan.entities {
            guard let origin = step.source, let table = destination.entity(named: step.name)?.table, !kept.contains(table) else { continue }
            counts[step.name] = try copyRows(of: step, from: origin)
        }
        return counts
    }

    /// The destination's indexes: those a source index's entries can serve taken over
    /// (`adoptIndexes`), the parked tables' other indexes dropped, the missing ones made.
    /// Returns the names of the indexes taken over.
    func makeIndexes() throws -> Set<String> {
        let adopted = try adoptIndexes()
        // The new indexes before the old tables go: their pages then come from the end of the
        // file, not from the old tables' freed pages (which the journal would have to save first).
        let aside = Set(parked.values)
        for row in try database.rows("SELECT name, tbl_name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL") {
            guard let name = row[0].text, let table = row[1].text, aside.contains(table) else { continue }
            try database.execute("DROP INDEX \(Database.quote(name))")
        }
        try makeIndexes(adopted: adopted)
        return adopted
    }

    /// Drops the parked source tables.
    func dropSourceTables() throws {
        for table in Set(parked.values).sorted() { try database.execute("DROP TABLE \(Database.quote(table))") }
    }

    /// Whether a statement of the layout's schema makes a table of the model (not one of
    /// Core Data's bookkeeping tables, which the migration rewrites itself).
    private static func isModelTable(_ statement: String) -> Bool {
        statement.hasPrefix("CREATE TABLE ") && !StoreContents.bookkeepingTables.contains { statement.hasPrefix("CREATE TABLE \($0) ") }
    }

    /// Copies the rows of source entity `origin` (not its sub-entities') into `step`'s table,
    /// each column as the carriage says.
    private func copyRows(of step: MigrationPlan.EntityStep, from origin: String) throws -> Int {
        guard let target = destination.entity(named: step.name), let old = source.entity(named: origin),
              let table = destination.table(named: target.table), let aside = parked[old.table] else { return 0 }
        var columns = ["Z_PK", "Z_ENT", "Z_OPT"], values = ["o.Z_PK", String(target.number), "o.Z_OPT"]
        var arguments: [SQLValue] = []
        for column in Carriage.lineageColumns(of: step.name, in: table, destination: destination) {
            guard let value = carriage.columns[Carriage.Place(entity: step.name, column: column.name)].flatMap(sql) else { continue }
            columns.append(Database.quote(column.name))
            values.append(value.sql)
            arguments += value.arguments
        }
        try database.run("INSERT INTO \(Database.quote(table.name)) (\(columns.joined(separator: ", "))) SELECT \(values.joined(separator: ", ")) "
                         + "FROM \(Database.quote(aside)) AS o WHERE o.Z_ENT = \(old.number)", arguments)
        return Int(try database.scalar("SELECT changes()")?.integer ?? 0)
    }

    /// A column's source as SQL over the source row `o`, with its arguments; nil leaves it NULL.
    private func sql(_ columnSource: ColumnSource) -> (sql: String, arguments: [SQLValue])? {
        func column(_ name: String) -> String { "o.\(Database.quote(name))" }
        func key(_ source: ColumnSource.KeySource) -> String {
            switch source {
            case .column(let name): column(name)
            case .linked(let object): linked(object)
            }
        }
        func linked(_ object: ColumnSource.LinkedObject) -> String {
            switch object {
            case .onlyLink(let links): "(SELECT l.\(Database.quote(links.linked)) \(links.rows) AND l.\(Database.quote(links.holder)) = o.Z_PK)"
            case .inverse(let links): "(SELECT l.\(Database.quote(links.holder)) \(links.rows) AND l.\(Database.quote(links.linked)) = o.Z_PK LIMIT 1)"
            }
        }
        switch columnSource {
        case .none: return nil
        case .column(let name): return (column(name), [])
        case .defaultValue(let value): return ("?", [value])
        case .columnOrDefault(let name, let value): return ("COALESCE(\(column(name)), ?)", [value])
        case .renumbered(let name): return ("CASE \(column(name)) \(entityNumbers()) END", [])
        case .linkedKey(let object): return (linked(object), [])
        case .entityOfRow(let table, let source): return entity(ofRowIn: table, key: key(source)).map { ($0, []) }
        case .linkedPosition(let links, let order):
            return ("(SELECT l.\(Database.quote(order)) \(links.rows) AND l.\(Database.quote(links.holder)) = o.Z_PK)", [])
        case .numberedInline(let source):
            let key = key(source)
            return ("CASE WHEN \(key) IS NULL THEN NULL ELSE \(OrderedListNumbering.positionSQL(ofPlace: "ROW_NUMBER() OVER (PARTITION BY \(key) ORDER BY o.Z_PK)")) END", [])
        }
    }

    /// The destination entity number of the row of source table `table` whose `Z_PK` is `key`,
    /// as SQL: looked up aside and mapped, or in a kept table (renumbered already).
    private func entity(ofRowIn table: String, key: String) -> String? {
        if let aside = parked[table] {
            return "(SELECT CASE t.Z_ENT \(entityNumbers()) END FROM \(Database.quote(aside)) AS t WHERE t.Z_PK = \(key))"
        }
        return kept.contains(table) ? "(SELECT t.Z_ENT FROM \(Database.quote(table)) AS t WHERE t.Z_PK = \(key))" : nil
    }

    /// `WHEN <source number> THEN <destination number>` for every source entity a destination
    /// entity succeeds (the rest, removed, become NULL).
    private func entityNumbers() -> String {
        let pairs = source.entities.compactMap { entity in
            successor[entity.name].flatMap { destination.entity(named: $0) }.map { "WHEN \(entity.number) THEN \($0.number)" }
        }
        return pairs.isEmpty ? "WHEN NULL THEN NULL" : pairs.joined(separator: " ")
    }
}
