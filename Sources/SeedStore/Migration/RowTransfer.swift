import SeedModel

/// Moves a store's rows from the source version's tables into the destination's, inside the
/// migration's transaction: a table the destination has unchanged is kept (only its entity
/// numbers rewritten); the others are renamed aside (their indexes go with them and serve the
/// copy), the destination's tables are made as a fresh store has them, each destination entity
/// takes the rows of the source entity it succeeds (`Z_PK` and `Z_OPT` kept, `Z_ENT` the
/// destination's number), join tables are copied, the destination's indexes made and the old
/// tables dropped.
struct RowTransfer {
    let database: Database
    let plan: MigrationPlan
    /// The source version's layout, as the store holds it.
    let source: StoreLayout
    /// The destination version's layout, in the store's framework era.
    let destination: StoreLayout
    let path: String
    /// Source entity name → the destination entity that takes its rows over.
    let successor: [String: String]
    /// Each source table's name while the migration runs (its own may be a new table's).
    let parked: [String: String]
    /// The tables kept as they are (`unchangedTables`): never parked, copied or rebuilt.
    let kept: Set<String>
    /// Whether a rebuilt table's indexes may take over its source table's (`adoptIndexes`).
    let adoptsIndexes: Bool

    init(database: Database, plan: MigrationPlan, source: StoreLayout, destination: StoreLayout, path: String, adoptsIndexes: Bool = true) {
        self.database = database
        self.adoptsIndexes = adoptsIndexes
        self.plan = plan
        self.source = source
        self.destination = destination
        self.path = path
        successor = plan.successors
        let kept = Self.unchangedTables(plan, source: source, destination: destination)
        self.kept = kept
        parked = Dictionary(uniqueKeysWithValues: (source.tables.map(\.name) + source.joinTables.map(\.name)).filter { !kept.contains($0) }.map { ($0, "_seedgen_migrating_\($0)") })
    }

    /// Throws `.notCarriedOut` for a change Core Data infers that this transfer cannot make
    /// with these rows: a to-many made to-one while an object holds several links (which one
    /// Core Data would keep is not known).
    func requireCarriedShapes() throws {
        for entity in plan.entities {
            guard let origin = entity.source else { continue }
            for property in entity.properties {
                guard case .reshaped(let shape) = property.change, shape.contains("to-many → to-one"), let previous = property.source,
                      let links = SourceLinks(of: previous, of: origin, in: source) else { continue }
                let holder = Database.quote(links.holder)
                guard let row = try database.rows("SELECT l.\(holder), COUNT(*) \(links.rows) GROUP BY l.\(holder) HAVING COUNT(*) > 1 LIMIT 1").first else { continue }
                throw MigrationError(.notCarriedOut(subject: "\(entity.name).\(property.name)"),
                                     "\(path): \(entity.name).\(property.name) changes \(shape), and the \(origin) object with Z_PK \(row[0].integer ?? 0) holds \(row[1].integer ?? 0) links "
                                     + "(which one a to-one keeps is not known: unlink all but one first); nothing was changed")
            }
        }
    }

    /// Moves every row; `beforeDroppingSources` runs once the rows are copied, while the
    /// parked source tables are still there. Returns the rows each destination entity took
    /// over (or kept), and the indexes that took over a source index's entries.
    func carryOver(beforeDroppingSources: () throws -> Void = {}) throws -> (rows: [String: Int], indexesTakenOver: Set<String>) {
        for (name, aside) in parked.sorted(by: { $0.key < $1.key }) {
            try database.execute("ALTER TABLE \(Database.quote(name)) RENAME TO \(Database.quote(aside))")
        }
        for table in destination.schema where Self.isModelTable(table) && !kept.contains(where: { table.hasPrefix("CREATE TABLE \($0) ") }) {
            try database.execute(table)
        }
        var counts = try renumberKeptTables()
        for step in plan.entities {
            guard let origin = step.source, let table = destination.entity(named: step.name)?.table, !kept.contains(table) else { continue }
            counts[step.name] = try copyRows(of: step, from: origin)
        }
        try copyJoinTables()
        try numberNewlyOrdered()
        try clearDanglingReferences()
        try beforeDroppingSources()
        let adopted = try adoptIndexes()
        // The new indexes before the old tables go: their pages then come from the end of the
        // file, not from the old tables' freed pages (which the journal would have to save first).
        let aside = Set(parked.values)
        for row in try database.rows("SELECT name, tbl_name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL") {
            guard let name = row[0].text, let table = row[1].text, aside.contains(table) else { continue }
            try database.execute("DROP INDEX \(Database.quote(name))")
        }
        try makeIndexes(adopted: adopted)
        for table in aside.sorted() { try database.execute("DROP TABLE \(Database.quote(table))") }
        return (counts, adopted)
    }

    /// Whether a statement of the layout's schema makes a table of the model (not one of
    /// Core Data's bookkeeping tables, which the migration rewrites itself).
    private static func isModelTable(_ statement: String) -> Bool {
        statement.hasPrefix("CREATE TABLE ") && !StoreContents.bookkeepingTables.contains { statement.hasPrefix("CREATE TABLE \($0) ") }
    }

    /// Copies the rows of source entity `origin` (not its sub-entities') into `step`'s table.
    private func copyRows(of step: MigrationPlan.EntityStep, from origin: String) throws -> Int {
        guard let target = destination.entity(named: step.name), let old = source.entity(named: origin),
              let table = destination.table(named: target.table), let aside = parked[old.table],
              let description = destination.model.entity(named: step.name) else { return 0 }
        let lineage = Set(destination.model.lineage(of: description).map(\.name))
        var columns = ["Z_PK", "Z_ENT", "Z_OPT"], values = ["o.Z_PK", String(target.number), "o.Z_OPT"]
        var arguments: [SQLValue] = []
        for column in table.columns where lineage.contains(column.entity) {
            guard let value = try expression(for: column, of: step, from: old) else { continue }
            columns.append(Database.quote(column.name))
            values.append(value.sql)
            arguments += value.arguments
        }
        try database.run("INSERT INTO \(Database.quote(table.name)) (\(columns.joined(separator: ", "))) SELECT \(values.joined(separator: ", ")) "
                         + "FROM \(Database.quote(aside)) AS o WHERE o.Z_ENT = \(old.number)", arguments)
        return Int(try database.scalar("SELECT changes()")?.integer ?? 0)
    }

    /// The value a destination column takes from a source row `o`; nil leaves it NULL.
    private func expression(for column: ColumnLayout, of step: MigrationPlan.EntityStep, from old: EntityLayout) throws -> (sql: String, arguments: [SQLValue])? {
        func property(_ name: String) -> MigrationPlan.PropertyStep? {
            step.properties.first { $0.name == name && $0.change != .removed }
        }
        switch column.role {
        case .attribute(let owner, let name, _):
            guard let property = property(name) else { return nil }
            let sourceColumn = property.source.flatMap { source.column(for: $0, of: old.name) }.map { "o.\(Database.quote($0))" }
            switch property.change {
            case .added, .defaultFilled:
                guard let attribute = destination.model.entity(named: owner)?.attribute(named: name) else { return nil }
                let value: SQLValue?
                do {
                    value = try attribute.storedDefaultValue()
                } catch {
                    throw MigrationError(.notCarriedOut(subject: "\(owner).\(name)"), "\(path): \(owner).\(name): \(error)")
                }
                guard let value else { return nil }
                if case .added = property.change { return ("?", [value]) }
                return sourceColumn.map { ("COALESCE(\($0), ?)", [value]) } ?? ("?", [value])
            default:
                return sourceColumn.map { ($0, []) }
            }
        case .foreignKey(_, let name, _):
            return property(name)?.source.flatMap { toOne($0, of: old) }.map { ($0.key, []) }
        case .foreignEntity(_, let name):
            guard let previous = property(name)?.source, let toOne = toOne(previous, of: old) else { return nil }
            let numbers = entityNumbers()
            if let entity = toOne.entity { return ("CASE \(entity) \(numbers) END", []) }
            // The source's destination had no sub-entities: its rows' entity, looked up.
            guard let relationship = source.model.entity(named: old.name).flatMap({ source.model.allRelationships(of: $0).first { $0.name == previous } }),
                  let target = source.entity(named: relationship.destinationEntity), let aside = parked[target.table] else { return nil }
            return ("(SELECT CASE t.Z_ENT \(numbers) END FROM \(Database.quote(aside)) AS t WHERE t.Z_PK = \(toOne.key))", [])
        case .foreignOrder(let owner, let name):
            guard let previous = property(name)?.source, let toOne = toOne(previous, of: old) else { return nil }
            if let order = toOne.order { return (order, []) }
            // The inverse became ordered: positions in Z_PK order, numbered here when these are
            // the only rows holding the to-one (else `numberNewlyOrdered` numbers them after).
            guard numbersInline(owner), source.toOneColumns(for: previous, of: old.name) != nil else { return nil }
            return ("CASE WHEN \(toOne.key) IS NULL THEN NULL ELSE \(ObjectRows.positionStep) * (1 + ROW_NUMBER() OVER (PARTITION BY \(toOne.key) ORDER BY o.Z_PK)) END", [])
        }
    }

    /// What a destination to-one takes from source relationship `previous` of a row `o` of
    /// `old`, as SQL: the key of the linked object, its entity number when the source keeps it,
    /// and this object's place in the inverse's ordered list. A source to-one gives its columns;
    /// a to-many made to-one its only link (`requireCarriedShapes` saw that none has more).
    private func toOne(_ previous: String, of old: EntityLayout) -> (key: String, entity: String?, order: String?)? {
        if let columns = source.toOneColumns(for: previous, of: old.name) {
            func column(_ name: String) -> String { "o.\(Database.quote(name))" }
            return (column(columns.key), columns.entity.map(column), columns.order.map(column))
        }
        guard let links = SourceLinks(of: previous, of: old.name, in: source, table: { parked[$0] }) else { return nil }
        func linked(_ column: String) -> String { "(SELECT l.\(Database.quote(column)) \(links.rows) AND l.\(Database.quote(links.holder)) = o.Z_PK)" }
        return (linked(links.linked), nil, links.orders[true].map(linked))
    }

    /// Whether the positions of a to-one's objects in its newly ordered inverse are numbered as
    /// the rows are copied: when `owner`, which declares the to-one, has no sub-entities (its
    /// rows, all copied by one statement, are the only ones holding it).
    private func numbersInline(_ owner: String) -> Bool {
        destination.model.entity(named: owner).map { destination.model.subentities(of: $0).isEmpty } ?? false
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
