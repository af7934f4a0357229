import SeedModel

/// What a migration does to each source entity's objects in the seed record. An entity whose
/// destination row digests exactly what its source row digested — each digested column
/// carrying one source column's values as they are, in the same order — and whose objects'
/// keys are made of the same columns keeps its record rows: they stay (same entity number) or
/// are renumbered, with no row read. Only the others are digested again (`markUnchanged`,
/// then `rebase`): an entity given an attribute, a filled default, a to-one whose references
/// may be cleared, or entity columns whose numbers change.
struct RecordMigration {
    /// What becomes of one source entity's record rows.
    enum Fate {
        /// Kept as they are.
        case stays
        /// Kept, under the destination's entity number.
        case renumbered(to: Int)
        /// Digested and named again where the user left the object as seeded; `keysCarried`:
        /// the objects named by their key or identifier keep their names (the key is made of
        /// the same columns, carried as they are), only those named by their values are named
        /// again.
        case rebased(EntityLayout, keysCarried: Bool)
        /// Gone with the entity.
        case dropped
    }

    /// Each concrete source entity with what becomes of its record rows.
    let fates: [(source: EntityLayout, fate: Fate)]
    /// The entities (source numbers) whose record `digestAfterCopy` digests in place, with
    /// their source table's parked name (set by `markUnchanged`).
    var digestedAfterCopy: [Int: String] = [:]

    init(plan: MigrationPlan, source: StoreLayout, destination: StoreLayout, buildKeys: [String: [String]]) {
        let successors = plan.successors
        let renumbers = source.entities.contains { entity in
            successors[entity.name].flatMap { destination.entity(named: $0) }.map { $0.number != entity.number } ?? false
        }
        let thinned = RowTransfer.thinnedTables(source: source, destination: destination, successor: successors)
        let oldNames = ObjectNames(layout: source, buildKeys: buildKeys, contentByDigest: true)
        let newNames = ObjectNames(layout: destination, buildKeys: buildKeys, contentByDigest: true)
        fates = source.entities.filter { !$0.isAbstract }.map { old in
            guard let step = plan.entities.first(where: { $0.source == old.name }), let new = destination.entity(named: step.name), !new.isAbstract else {
                return (old, .dropped)
            }
            let carried = Self.carriedColumns(of: step, from: old, to: new, source: source, destination: destination,
                                              renumbers: renumbers, thinned: thinned)
            guard let oldNaming = oldNames.naming(of: old.name), let newNaming = newNames.naming(of: new.name) else {
                return (old, .rebased(new, keysCarried: false))
            }
            let origin = Dictionary(carried.compactMap { column in column.old.map { (column.new, $0) } }, uniquingKeysWith: { first, _ in first })
            func sameColumns(_ new: [(attribute: AttributeDescription, column: String)], _ old: [(attribute: AttributeDescription, column: String)]) -> Bool {
                new.map { origin[$0.column] } == old.map { Optional($0.column) }
            }
            let keysCarried = sameColumns(newNaming.keyAttributes, oldNaming.keyAttributes)
            guard keysCarried, sameColumns(newNaming.contentAttributes, oldNaming.contentAttributes),
                  carried.map(\.old) == SeedRecord.digestedColumns(of: old, in: source).map(Optional.some) else {
                return (old, .rebased(new, keysCarried: keysCarried))
            }
            return (old, new.number == old.number ? .stays : .renumbered(to: new.number))
        }
    }

    /// Whether any entity's rows are digested again.
    var rebases: Bool { fates.contains { if case .rebased = $0.fate { true } else { false } } }

    /// For each column the destination digests of `new`, in order, the source column of `old`
    /// whose values it takes as they are (`RowTransfer.carriedColumn`), or nil.
    private static func carriedColumns(of step: MigrationPlan.EntityStep, from old: EntityLayout, to new: EntityLayout,
                                       source: StoreLayout, destination: StoreLayout, renumbers: Bool, thinned: Set<String>) -> [(new: String, old: String?)] {
        SeedRecord.columns(of: new, in: destination, positions: false).map { column in
            (column.name, RowTransfer.carriedColumn(column, of: step, from: old.name, source: source, destination: destination, renumbers: renumbers, thinned: thinned))
        }
    }
}
