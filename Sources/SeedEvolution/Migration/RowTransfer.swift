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
                guard let links = inverseLinks(of: property.name, in: step, parkedTables: false) else { continue }
                let linked = Database.quote(links.linked)
                guard let row = try database.rows("SELECT l.\(linked), COUNT(*) \(links.rows) GROUP BY l.\(linked) HAVING COUNT(*) > 1 LIMIT 1").first else { continue }
                throw MigrationError(.notCarriedOut(subject: "\(step.name).\(property.name)"),
                                     "\(path): \(step.name).\(property.name) is a to-one that takes its links from its inverse, and the \(step.source ?? step.name) object with Z_PK \(row[0].integer ?? 0) "
                                     + "is linked by \(row[1].integer ?? 0) objects (which one a to-one keeps is not known: unlink all but one first); nothing was changed")
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
            let isAdded = if case .added = property.change { true } else { false }
            // Rows take the model's default: all of them (added), or those holding no value (made required).
            guard isAdded || property.change.filledDefault != nil else { return sourceColumn.map { ($0, []) } }
            guard let attribute = destination.model.entity(named: owner)?.attribute(named: name) else { return nil }
            let value: SQLValue?
            do {
                value = try attribute.storedDefaultValue()
            } catch {
                throw MigrationError(.notCarriedOut(subject: "\(owner).\(name)"), "\(path): \(owner).\(name): \(error)")
            }
            guard let value else { return nil }
            if isAdded { return ("?", [value]) }
            return sourceColumn.map { ("COALESCE(\($0), ?)", [value]) } ?? ("?", [value])
        case .foreignKey(_, let name, _):
            if let links = inverseLinks(of: name, in: step) {
                return ("(SELECT l.\(Database.quote(links.holder)) \(links.rows) AND l.\(Database.quote(links.linked)) = o.Z_PK LIMIT 1)", [])
            }
            return property(name)?.source.flatMap { toOne($0, of: old) }.map { ($0.key, []) }
        case .foreignEntity(_, let name):
            if let links = inverseLinks(of: name, in: step), let relationship = destination.relationship(name, of: step.name),
               let holderStep = plan.entities.first(where: { $0.name == relationship.destinationEntity }), let origin = holderStep.source,
               let table = source.entity(named: origin)?.table,
               let entity = entity(ofRowIn: table, key: "(SELECT l.\(Database.quote(links.holder)) \(links.rows) AND l.\(Database.quote(links.linked)) = o.Z_PK LIMIT 1)") {
                return (entity, [])
            }
            guard let previous = property(name)?.source, let toOne = toOne(previous, of: old) else { return nil }
            if let entity = toOne.entity { return ("CASE \(entity) \(entityNumbers()) END", []) }
            // The source's destination had no sub-entities: its rows' entity, looked up.
            guard let target = source.relationship(previous, of: old.name).flatMap({ source.entity(named: $0.destinationEntity) }),
                  let entity = entity(ofRowIn: target.table, key: toOne.key) else { return nil }
            return (entity, [])
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
        guard let links = SourceLinks(of: previous, of: old.name, in: source, table: sourceTable) else { return nil }
        func linked(_ column: String) -> String { "(SELECT l.\(Database.quote(column)) \(links.rows) AND l.\(Database.quote(links.holder)) = o.Z_PK)" }
        return (linked(links.linked), nil, links.orders[true].map(linked))
    }

    /// Where an added to-one `name` of `step`'s entity takes its links from: its inverse, a
    /// to-many the destination entity took over from a source relationship, seen from that
    /// source relationship's side (`holder` the inverse's objects, `linked` this entity's), in
    /// the parked tables. As Core Data's inferred mapping carries the kept to-many and so sets
    /// its inverse. Nil when the to-one is not added, or its inverse is new too or ordered.
    func inverseLinks(of name: String, in step: MigrationPlan.EntityStep, parkedTables: Bool = true) -> SourceLinks? {
        guard case .added? = step.properties.first(where: { $0.name == name })?.change,
              let relationship = destination.relationship(name, of: step.name), !relationship.isToMany,
              let inverse = relationship.inverseName,
              let inverseRelationship = destination.relationship(inverse, of: relationship.destinationEntity), !inverseRelationship.isOrdered,
              let holderStep = plan.entities.first(where: { $0.name == relationship.destinationEntity }), let origin = holderStep.source,
              let previous = holderStep.properties.first(where: { $0.name == inverse && $0.change != .removed && $0.change != .refused })?.source else { return nil }
        return SourceLinks(of: previous, of: origin, in: source, table: parkedTables ? sourceTable : { $0 })
    }

    /// The destination entity number of the row of source table `table` whose `Z_PK` is `key`,
    /// as SQL: looked up aside and mapped, or in a kept table (renumbered already).
    private func entity(ofRowIn table: String, key: String) -> String? {
        if let aside = parked[table] {
            return "(SELECT CASE t.Z_ENT \(entityNumbers()) END FROM \(Database.quote(aside)) AS t WHERE t.Z_PK = \(key))"
        }
        return kept.contains(table) ? "(SELECT t.Z_ENT FROM \(Database.quote(table)) AS t WHERE t.Z_PK = \(key))" : nil
    }

    /// Where a source table's rows are while they are carried over: aside, or where they were
    /// for a table kept as it is (its keys and links unchanged). A kept table's links were
    /// once looked for only aside, and a to-many made to-one whose inverse's table was kept
    /// lost every link with exit 0.
    func sourceTable(_ name: String) -> String? {
        parked[name] ?? (kept.contains(name) ? name : nil)
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
