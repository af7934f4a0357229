import SeedModel
import SeedStore

/// What a migration does to each source entity's objects in the seed record. An entity whose
/// migrated rows hold the values the record's digests cover, each column carried as it is
/// (renamed or not), with only added columns beside them — each holding the one value the
/// migration gave every row — and whose keys are made of the same columns, keeps its record
/// rows as they are, with no row read, and where the digests no longer cover the entity's own
/// columns in its own order, or the names of objects named by their values may be stale, a
/// `DigestRule` says how to check them (`digestRules`; settling it names those objects again).
/// Only the others are digested again (`markUnchanged`, then `digestAfterCopy` or `rebase`):
/// an entity losing a column, given a filled default, a to-one whose references may be
/// cleared, or entity columns whose numbers change. Every row stays under the number it is
/// recorded under; where the entity's number changes, `RecordNumbers` says so.
struct RecordMigration {
    /// What becomes of one source entity's record rows.
    enum Fate {
        /// Kept as they are, the entity `new` in the destination (under another number, maybe:
        /// `RecordNumbers`).
        case kept(EntityLayout)
        /// Digested again where the user left the object as seeded, in place, against the
        /// source rows in their parked table `against` (`digestAfterCopy`): every recorded key
        /// still names its object (made of the same columns, carried as they are, or the entity
        /// has no objects named by their values), so only the digests change.
        case redigested(EntityLayout, against: String)
        /// Digested and named again where the user left the object as seeded (`markUnchanged`,
        /// then `rebase`): its key may change.
        case rebased(EntityLayout)
        /// Gone with the entity.
        case dropped
    }

    /// Each concrete source entity with what becomes of its record rows.
    let fates: [(source: EntityLayout, fate: Fate)]
    /// How the source record's digests are checked, by source entity number (`DigestRule`).
    let sourceRules: [Int: DigestRule]
    /// The numbers the source record's rows are under.
    let sourceNumbers: RecordNumbers
    /// The rules of the destination's record, by destination entity number: those of entities
    /// whose rows are kept with digests over other columns than their own.
    let digestRules: [Int: DigestRule]
    /// Whether the record is packed (`SeedRecord.pack`), as an install writes it: it stays
    /// packed where every entity's rows are kept or dropped (`keepsPacked`), and is unpacked
    /// first otherwise.
    let isPacked: Bool
    /// The fate of each entity's record rows, from the source record's rules and numbers
    /// (`recorded`, checked when the migration started) and, where an entity's keys would
    /// change, whether any of its objects is named by its values; `parked`: each source table's
    /// name while the migration copies its rows (`RowTransfer.parked`; a table kept as it is
    /// has none). A packed record (`packed`) holds no keys to tell whether objects are named by
    /// their values: every entity that may have such objects is taken to have them.
    init(carriage: Carriage, buildKeys: (source: [String: [String]], destination: [String: [String]]),
         recorded: (rules: [Int: DigestRule], numbers: RecordNumbers), namesWithinOwners: Bool, packed: Bool, database: Database) throws {
        let (plan, source, destination) = (carriage.plan, carriage.source, carriage.destination)
        let oldNames = ObjectNames(layout: source, buildKeys: buildKeys.source, contentByDigest: true,
                                   namedWithoutOwner: ObjectNames.namedWithoutOwner(recordNamesWithinOwners: namesWithinOwners, in: source))
        let newNames = ObjectNames(layout: destination, buildKeys: buildKeys.destination, contentByDigest: true,
                                   namedWithoutOwner: ObjectNames.namedWithoutOwner(recordNamesWithinOwners: namesWithinOwners, in: destination))
        let (sourceRules, sourceNumbers) = recorded
        var fates: [(source: EntityLayout, fate: Fate)] = [], rules: [Int: DigestRule] = [:]
        for old in source.entities where !old.isAbstract {
            guard let step = plan.entities.first(where: { $0.source == old.name }), let new = destination.entity(named: step.name), !new.isAbstract else {
                fates.append((old, .dropped))
                continue
            }
            let carried = SeedRecord.columns(of: new, in: destination, positions: false).map { column in
                (new: column.name, old: carriage.carriedColumn(column, of: new.name))
            }
            // Keys made of the same columns name the same objects, but for those named by their
            // values when what names them changed (`contentKept`).
            var keysKept = false, contentKept = true, oldContent: [String] = []
            if let oldNaming = oldNames.naming(of: old.name), let newNaming = newNames.naming(of: new.name) {
                let origin = Dictionary(carried.compactMap { column in column.old.map { (column.new, $0) } }, uniquingKeysWith: { first, _ in first })
                func sameColumns(_ new: [(attribute: AttributeDescription, column: String)], _ old: [(attribute: AttributeDescription, column: String)]) -> Bool {
                    new.map { origin[$0.column] } == old.map { Optional($0.column) }
                }
                // A key through a to-one is made again from the migrated rows (its owner's key
                // may have changed with it).
                keysKept = sameColumns(newNaming.keyAttributes, oldNaming.keyAttributes) && newNaming.keyOwner == nil && oldNaming.keyOwner == nil
                if keysKept {
                    contentKept = try sameColumns(newNaming.contentAttributes, oldNaming.contentAttributes)
                        || !packed && !Self.namesByValues(recordedAs: sourceNumbers.recorded(old.number), in: database)
                }
                oldContent = oldNaming.contentAttributes.map(\.column)
            }
            var sourceRule = Self.sourceRule(of: old, in: source, rules: sourceRules)
            // Names made of other values from now on: the columns that made them, carried below.
            if !contentKept && sourceRule.named.isEmpty { sourceRule.named = oldContent }
            guard keysKept, let rule = Self.rule(sourceRule, carriedBy: carried, of: step, to: new, in: carriage) else {
                let aside = keysKept && contentKept ? carriage.parked[old.table] : nil
                fates.append((old, aside.map { .redigested(new, against: $0) } ?? .rebased(new)))
                continue
            }
            // With a rule, every value the record covers is carried as it is and every other
            // column is added with one value for all rows: objects equal in the attributes that
            // name them before the migration are equal after it, and only those. So where what
            // names them changed, their keys stay too, until the rule is settled (or the rows
            // digested again), which makes each such key again from its row, ordinal kept
            // (`SeedRecord.redigest`): the rule stays while keys may be stale.
            if rule != DigestRule(of: new, in: destination) || !contentKept || sourceRules[old.number] != nil { rules[new.number] = rule }
            fates.append((old, .kept(new)))
        }
        self.fates = fates
        self.sourceRules = sourceRules
        self.sourceNumbers = sourceNumbers
        self.digestRules = rules
        self.isPacked = packed
    }

    /// Whether the packed record can stay packed: every entity's rows are kept as they are
    /// (with a rule, maybe, under another number) or leave with their entity; none is digested
    /// or named again, which needs every key and digest in full.
    var keepsPacked: Bool {
        fates.allSatisfy { fate in
            switch fate.fate {
            case .kept, .dropped: true
            case .redigested, .rebased: false
            }
        }
    }

    /// The numbers the destination's record rows are under: each carried entity's rows where
    /// they were, its number the destination's.
    var destinationNumbers: RecordNumbers {
        var map: [Int: Int] = [:]
        for (old, fate) in fates {
            guard let recorded = sourceNumbers.recorded(old.number) else { continue }
            switch fate {
            case .dropped: continue
            case .kept(let new), .redigested(let new, _), .rebased(let new): map[new.number] = recorded
            }
        }
        return RecordNumbers(recordedByEntity: map)
    }

    /// The source rule of `old`, or the rule of a record of its own layout.
    func sourceRule(of old: EntityLayout, in source: StoreLayout) -> DigestRule {
        Self.sourceRule(of: old, in: source, rules: sourceRules)
    }

    /// The rule of `old` among `rules` (the source record's), or that of its own layout.
    private static func sourceRule(of old: EntityLayout, in source: StoreLayout, rules: [Int: DigestRule]) -> DigestRule {
        rules[old.number] ?? DigestRule(of: old, in: source)
    }

    /// Whether the record names any object whose rows are under `recorded` by its values (a key
    /// that changes with them).
    private static func namesByValues(recordedAs recorded: Int?, in database: Database) throws(SQLiteError) -> Bool {
        guard let recorded else { return false }
        return try database.scalar("SELECT 1 FROM \(SeedRecord.table) WHERE ENTITY = ? AND (\(ObjectNames.namesByValues("KEY")) OR \(SeedRecord.knownByCheck("KEY"))) LIMIT 1", [.integer(Int64(recorded))]) != nil
    }

    /// `rule` (the source record's, for a row of `step`'s source entity) over the destination's
    /// columns, `carried` saying which source column each destination column carries as it is:
    /// nil when a column it covers is not carried, or a destination column is neither carried
    /// nor added (a property whose values change: a filled default, a reshape, a new reference).
    private static func rule(_ rule: DigestRule, carriedBy carried: [(new: String, old: String?)],
                             of step: MigrationPlan.EntityStep, to new: EntityLayout, in carriage: Carriage) -> DigestRule? {
        let destination = carriage.destination
        let carrier = Dictionary(carried.compactMap { column in column.old.map { ($0, column.new) } }, uniquingKeysWith: { first, _ in first })
        var digested: [String] = [], fixed: [DigestRule.Fixed] = []
        for column in rule.digested {
            guard let new = carrier[column] else { return nil }
            digested.append(new)
        }
        for old in rule.fixed {
            guard let new = carrier[old.column] else { return nil }
            fixed.append(.init(column: new, value: old.value))
        }
        let named = rule.named.compactMap { carrier[$0] }
        guard named.count == rule.named.count else { return nil }
        let covered = Set(digested + fixed.map(\.column))
        for column in SeedRecord.columns(of: new, in: destination, positions: false) where !covered.contains(column.name) {
            guard case .attribute(_, let name, _) = column.role, case .added = step.properties.first(where: { $0.name == name })?.change else { return nil }
            // An added attribute: every row holds its default (or NULL, without one).
            switch carriage.columns[Carriage.Place(entity: new.name, column: column.name)] {
            case .defaultValue(let value)?: fixed.append(.init(column: column.name, value: value))
            case ColumnSource.none?: fixed.append(.init(column: column.name, value: .null))
            default: return nil
            }
        }
        return DigestRule(digested: digested, fixed: fixed, named: named)
    }
}
