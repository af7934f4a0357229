import SeedModel
import SeedStore

extension Carriage {
    /// A source index whose entries a destination index of a rebuilt table would hold as they
    /// are, so that it may take that index's b-tree over rather than sort the rows again
    /// (`RowTransfer.adoptIndexes`): its table took every row of one source table and nothing
    /// else, and each of its key columns carries one source column's values unchanged. Which
    /// index of the parked table has this shape is the store's to say.
    struct AdoptableIndex: Equatable {
        /// The destination index.
        let index: IndexLayout
        /// The source table, parked while the rows are copied.
        let aside: String
        /// Whether the source index must be unique (as the destination's is).
        let isUnique: Bool
        /// The columns a source index must have, in order, by their source names, each with
        /// the destination's order and collation.
        let columns: [IndexShape.Column]

        /// Whether the store's index of shape `shape` on `aside` holds these entries.
        func isHeld(by shape: IndexShape) -> Bool {
            shape.isUnique == isUnique && !shape.isPartial && shape.columns == columns
        }
    }

    /// Each destination index of a rebuilt table that a source index may hand over, by name,
    /// decided from the two layouts alone.
    var adoptableIndexes: [String: AdoptableIndex] {
        var adoptable: [String: AdoptableIndex] = [:]
        for index in destination.indexes where !keptTables.contains(index.table) {
            guard let origin = soleSource(of: index.table), let aside = parked[origin] else { continue }
            let want = IndexShape(index)
            guard !want.isPartial else { continue }
            let members = source.entities.filter { $0.table == origin && !$0.isAbstract }
            // Z_ENT keeps its values when this table's entities keep their numbers.
            let renumbersMembers = members.contains { entity in
                successor[entity.name].flatMap { destination.entity(named: $0) }.map { $0.number != entity.number } ?? true
            }
            var columns: [IndexShape.Column] = []
            for wanted in want.columns {
                let held: String?
                switch wanted.name {
                case "Z_OPT": held = "Z_OPT"
                case "Z_ENT": held = renumbersMembers ? nil : "Z_ENT"
                default: held = sourceColumn(of: wanted.name, in: index.table, from: origin, members: members)
                }
                guard let held else { break }
                columns.append(IndexShape.Column(name: held, isDescending: wanted.isDescending, collation: wanted.collation))
            }
            guard columns.count == want.columns.count else { continue }
            adoptable[index.name] = AdoptableIndex(index: index, aside: aside, isUnique: want.isUnique, columns: columns)
        }
        return adoptable
    }

    /// The source column whose values destination column `name` of `table` holds, row for row,
    /// for every source entity of `members` (the rows of source table `origin`): the column
    /// carried as it is for those whose successor has it; one those without it hold no value in
    /// (it is not of their lineage). Nil where no member's successor has the column, or two
    /// take it from different columns.
    private func sourceColumn(of name: String, in table: String, from origin: String, members: [EntityLayout]) -> String? {
        guard let column = destination.table(named: table)?.columns.first(where: { $0.name == name }) else { return nil }
        var held: String?, without: [EntityDescription] = []
        for old in members {
            guard let new = successor[old.name], let newEntity = destination.model.entity(named: new),
                  let oldEntity = source.model.entity(named: old.name) else { return nil }
            if destination.model.lineage(of: newEntity).contains(where: { $0.name == column.entity }) {
                guard let from = carriedColumn(column, of: new), held == nil || held == from else { return nil }
                held = from
            } else {
                without.append(oldEntity)
            }
        }
        // Left NULL by the copy for the others: so must their source rows have it.
        guard let held, let heldColumn = source.table(named: origin)?.columns.first(where: { $0.name == held }),
              !without.contains(where: { source.model.lineage(of: $0).contains { $0.name == heldColumn.entity } }) else { return nil }
        return held
    }

    /// The one source table whose rows, all of them, destination `table` took, and no other.
    private func soleSource(of table: String) -> String? {
        let origins = Set(destination.entities.filter { $0.table == table }.compactMap { entity in
            plan.entities.first { $0.name == entity.name }?.source.flatMap { source.entity(named: $0)?.table }
        })
        guard origins.count == 1, let origin = origins.first else { return nil }
        let allCome = source.entities.filter { $0.table == origin }.allSatisfy { entity in
            successor[entity.name].flatMap { destination.entity(named: $0)?.table } == table
        }
        return allCome ? origin : nil
    }
}
