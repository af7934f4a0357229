import SeedModel
import SeedStore

/// How a migration carries a store from the source layout to the destination's, decided once,
/// from the plan and the two layouts, before anything is written: which source entity's rows
/// each destination entity takes, which tables stay as they are and where the others wait
/// while their rows are copied, and, for every column of every destination entity that takes
/// rows, where its values come from (`ColumnSource`); where each join table takes its links and
/// which lists a to-many made ordered numbers (`Carriage+Links`). The row transfer, the seed
/// record's migration and the index adoption all read it; none decides a column on its own.
struct Carriage {
    /// One column of one destination entity's rows (an entity shares its table with others).
    struct Place: Hashable {
        /// The destination entity whose rows hold the column.
        var entity: String
        /// The column.
        var column: String
    }

    let plan: MigrationPlan
    /// The source version's layout, as the store holds it.
    let source: StoreLayout
    /// The destination version's layout, in the store's framework era.
    let destination: StoreLayout
    /// Source entity name → the destination entity that takes its rows over.
    let successor: [String: String]
    /// The tables kept as they are, rows and indexes (only entity numbers rewritten): a table
    /// whose `CREATE TABLE` the source has word for word, all of whose rows come from that same
    /// table, each column from the same column as it is.
    let keptTables: Set<String>
    /// Each other source table's name while the migration copies its rows out of it.
    let parked: [String: String]
    /// The destination tables that take rows from a source table whose rows do not all go to
    /// one table (entities removed from it or moved out): references into them may dangle.
    let thinnedTables: Set<String>
    /// Whether any entity's number changes.
    let renumbers: Bool
    /// The destination tables the migration writes every row of (join tables included): those
    /// not kept.
    var writtenTables: Set<String> {
        Set(destination.tables.map(\.name) + destination.joinTables.map(\.name)).subtracting(keptTables)
    }
    /// Where each column takes its values from, for every destination entity that takes a
    /// source entity's rows (its own rows; the columns of its lineage).
    let columns: [Place: ColumnSource]
    /// Where each destination join table that takes links takes them from, by its name.
    let joinTables: [String: JoinTableSource]
    /// The ordered lists whose positions the migration gives where a to-many becomes ordered.
    let newlyOrdered: [OrderedListNumbering.Columns]
    /// The to-ones that may point at rows gone from a thinned table: cleared where they do.
    let clearedReferences: [ClearedReference]
    /// The join tables whose links may point at rows gone from a thinned table: those go.
    let thinnedJoins: [ThinnedJoin]

    /// Decides how `plan` carries a store laid out as `source` to `destination`. Throws
    /// `.notCarriedOut` where a default value the migration must write cannot be stored.
    init(plan: MigrationPlan, source: StoreLayout, destination: StoreLayout, path: String) throws(MigrationError) {
        self.plan = plan
        self.source = source
        self.destination = destination
        let successor = plan.successors
        self.successor = successor
        renumbers = source.entities.contains { entity in
            successor[entity.name].flatMap { destination.entity(named: $0) }.map { $0.number != entity.number } ?? false
        }
        var destinations: [String: Set<String>] = [:]
        for entity in source.entities {
            destinations[entity.table, default: []].insert(successor[entity.name].flatMap { destination.entity(named: $0)?.table } ?? "")
        }
        thinnedTables = Set(destinations.values.filter { $0.count > 1 }.flatMap { $0 }.filter { !$0.isEmpty })
        // The columns first as the source holds them (kept tables are found from them), then
        // with the parked names of the tables that are not kept.
        let unparked = try Self.columnSources(plan, source: source, destination: destination, path: path, table: { $0 })
        let keptTables = Self.unchangedTables(plan, source: source, destination: destination, columns: unparked)
        self.keptTables = keptTables
        let parked = Dictionary(uniqueKeysWithValues: (source.tables.map(\.name) + source.joinTables.map(\.name))
            .filter { !keptTables.contains($0) }.map { ($0, "_seedgen_migrating_\($0)") })
        self.parked = parked
        columns = try Self.columnSources(plan, source: source, destination: destination, path: path) { name in
            parked[name] ?? (keptTables.contains(name) ? name : nil)
        }
        joinTables = Self.joinTableSources(plan, source: source, destination: destination, parked: parked)
        newlyOrdered = Self.newlyOrderedLists(plan, destination: destination)
        (clearedReferences, thinnedJoins) = Self.danglingCandidates(destination: destination, thinned: thinnedTables)
    }

    /// The source column whose values `column` of destination entity `entity`'s rows takes as
    /// they are (an attribute's or a to-one's columns, kept or renamed, only its optionality
    /// changed with no default filled in); nil otherwise.
    func sourceColumn(_ column: String, of entity: String) -> String? {
        switch columns[Place(entity: entity, column: column)] {
        case .column(let name)?, .renumbered(let name)?: name
        default: nil
        }
    }

    /// `sourceColumn`, where the copy of a rebuilt table leaves the values as they are too: not
    /// a reference into a thinned table (which may be cleared), not an entity number when
    /// entities are renumbered, not a position (renumbered where a list becomes ordered).
    func carriedColumn(_ column: ColumnLayout, of entity: String) -> String? {
        switch column.role {
        case .attribute: break
        case .foreignKey(_, _, let target):
            guard let table = destination.entity(named: target)?.table, !thinnedTables.contains(table) else { return nil }
        case .foreignEntity:
            guard !renumbers else { return nil }
        case .foreignOrder, .ownerKey:
            return nil
        }
        return sourceColumn(column.name, of: entity)
    }

    /// The destination tables kept as they are: whose `CREATE TABLE` the source has word for
    /// word, whose rows all come from that same table (no entity added to it from elsewhere,
    /// none removed or moved out), each column from the same column as it is.
    private static func unchangedTables(_ plan: MigrationPlan, source: StoreLayout, destination: StoreLayout, columns: [Place: ColumnSource]) -> Set<String> {
        var kept: Set<String> = []
        for table in destination.tables {
            guard let old = source.table(named: table.name), old.createSQL == table.createSQL else { continue }
            let sourceMembers = Set(source.entities.filter { $0.table == table.name }.map(\.name))
            var taken: Set<String> = []
            var unchanged = true
            for step in plan.entities where destination.entity(named: step.name)?.table == table.name {
                guard let origin = step.source else { continue }  // a new entity: no rows yet
                taken.insert(origin)
                unchanged = unchanged && source.entity(named: origin)?.table == table.name
                    && lineageColumns(of: step.name, in: table, destination: destination).allSatisfy { column in
                        switch columns[Place(entity: step.name, column: column.name)] {
                        case .column(column.name)?, .renumbered(column.name)?: true
                        default: false
                        }
                    }
            }
            if unchanged && taken == sourceMembers { kept.insert(table.name) }
        }
        return kept
    }

    /// The columns of `table` that rows of destination entity `entity` hold (its lineage's).
    static func lineageColumns(of entity: String, in table: TableLayout, destination: StoreLayout) -> [ColumnLayout] {
        guard let description = destination.model.entity(named: entity) else { return [] }
        let lineage = Set(destination.model.lineage(of: description).map(\.name))
        return table.columns.filter { lineage.contains($0.entity) }
    }
}
