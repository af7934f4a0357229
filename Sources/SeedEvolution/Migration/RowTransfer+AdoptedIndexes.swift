import SeedModel
import SeedStore

extension RowTransfer {
    /// Gives each wanted index whose entries a source index holds already — its table took
    /// every row of one source table and nothing else, each key column carries one source
    /// column's values as they are, the two of one shape — that source index's b-tree, under
    /// the destination's name and definition, instead of sorting the rows again: a rebuilt
    /// table's indexes then cost nothing (sorting took 0.4 s an index at 1M rows).
    ///
    /// SQLite has no statement that moves an index to another table; the schema table is
    /// edited (`PRAGMA writable_schema`) inside the migration's transaction, and the schema read
    /// again. Where the connection refuses schema edits (SQLite's defensive mode), nothing is
    /// adopted. Throws `IndexAdoptionError` when SQLite does not then see the adopted indexes
    /// where they belong (the migration is rolled back and run again without adopting).
    /// Returns the names of the indexes adopted.
    func adoptIndexes() throws -> Set<String> {
        guard adoptsIndexes else { return [] }
        let wanted = destination.indexes.filter { !kept.contains($0.table) }
        var moves: [(index: IndexLayout, from: String, root: SQLValue)] = []
        var taken: Set<String> = []
        for table in Set(wanted.map(\.table)).sorted() {
            guard let origin = soleSource(of: table) else { continue }
            let candidates = try database.rows("SELECT name, rootpage FROM sqlite_master WHERE type = 'index' AND tbl_name = ? AND sql IS NOT NULL", [.text(origin.aside)])
            for want in wanted where want.table == table {
                for candidate in candidates {
                    // The new name must be free once the candidate's row goes (a parked
                    // table's other index may still have it).
                    guard let name = candidate[0].text, !taken.contains(name),
                          try database.scalar("SELECT 1 FROM sqlite_master WHERE name = ? AND name <> ?", [.text(want.name), .text(name)]) == nil,
                          let shape = try IndexShape.stored(name, on: origin.aside, in: database),
                          holdsSameEntries(IndexShape(want), as: shape, from: origin.table, into: table) else { continue }
                    taken.insert(name)
                    moves.append((want, name, candidate[1]))
                    break
                }
            }
        }
        guard !moves.isEmpty else { return [] }
        try database.execute("PRAGMA writable_schema = ON")
        guard try database.scalar("PRAGMA writable_schema")?.integer == 1 else { return [] }
        // From the first edit on, whatever fails makes the migration start again without
        // adopting (this connection's idea of the schema may then be wrong: it is closed).
        do {
            for move in moves {
                try database.run("DELETE FROM sqlite_master WHERE type = 'index' AND name = ?", [.text(move.from)])
                try database.run("INSERT INTO sqlite_master (type, name, tbl_name, rootpage, sql) VALUES ('index', ?, ?, ?, ?)",
                                 [.text(move.index.name), .text(move.index.table), move.root, .text(move.index.createSQL)])
            }
            try database.execute("PRAGMA writable_schema = RESET")
            // SQLite must now see each index on its new table, none on the old, with every row.
            for move in moves {
                let listed = try database.scalar("SELECT 1 FROM pragma_index_list(?) WHERE name = ?", [.text(move.index.table), .text(move.index.name)]) != nil
                let table = Database.quote(move.index.table)
                let entries = try database.scalar("SELECT COUNT(*) FROM \(table) INDEXED BY \(Database.quote(move.index.name))")
                let rows = try database.scalar("SELECT COUNT(*) FROM \(table) NOT INDEXED")
                let left = try database.scalar("SELECT 1 FROM sqlite_master WHERE name = ? AND tbl_name <> ?", [.text(move.from), .text(move.index.table)])
                guard listed, entries == rows, left == nil else {
                    throw IndexAdoptionError(index: move.index.name, cause: "SQLite does not see it on \(move.index.table) with every row")
                }
            }
        } catch let error as IndexAdoptionError {
            throw error
        } catch {
            throw IndexAdoptionError(index: moves.map(\.index.name).joined(separator: ", "), cause: "\(error)")
        }
        return Set(moves.map(\.index.name))
    }

    /// The one source table whose rows, all of them, destination `table` took, and no other
    /// rows (its parked name).
    private func soleSource(of table: String) -> (table: String, aside: String)? {
        let origins = Set(destination.entities.filter { $0.table == table }.compactMap { entity in
            plan.entities.first { $0.name == entity.name }?.source.flatMap { source.entity(named: $0)?.table }
        })
        guard origins.count == 1, let origin = origins.first, let aside = parked[origin] else { return nil }
        let allCome = source.entities.filter { $0.table == origin }.allSatisfy { entity in
            successor[entity.name].flatMap { destination.entity(named: $0)?.table } == table
        }
        return allCome ? (origin, aside) : nil
    }

    /// Whether the source index of `shape` on source table `origin` holds, row for row, the
    /// entries `want` would hold on `table` once its rows are copied.
    private func holdsSameEntries(_ want: IndexShape, as shape: IndexShape, from origin: String, into table: String) -> Bool {
        guard want.isUnique == shape.isUnique, !want.isPartial, !shape.isPartial, want.columns.count == shape.columns.count else { return false }
        func renumbered(_ entity: EntityLayout) -> Bool {
            successor[entity.name].flatMap { destination.entity(named: $0) }.map { $0.number != entity.number } ?? true
        }
        let members = source.entities.filter { $0.table == origin && !$0.isAbstract }
        // Z_ENT keeps its values when this table's entities keep their numbers; a to-one's
        // entity column when every entity does.
        let renumbersMembers = members.contains(where: renumbered)
        for (wanted, held) in zip(want.columns, shape.columns) {
            guard wanted.isDescending == held.isDescending, wanted.collation == held.collation else { return false }
            switch wanted.name {
            case "Z_OPT": guard held.name == "Z_OPT" else { return false }
            case "Z_ENT": guard held.name == "Z_ENT", !renumbersMembers else { return false }
            default:
                guard let column = destination.table(named: table)?.columns.first(where: { $0.name == wanted.name }) else { return false }
                for old in members {
                    guard let new = successor[old.name],
                          let newEntity = destination.model.entity(named: new), let oldEntity = source.model.entity(named: old.name) else { return false }
                    if destination.model.lineage(of: newEntity).contains(where: { $0.name == column.entity }) {
                        guard carriage.carriedColumn(column, of: new) == held.name else { return false }
                    } else {
                        // Left NULL by the copy: so must the source rows have it.
                        guard let heldColumn = source.table(named: origin)?.columns.first(where: { $0.name == held.name }),
                              !source.model.lineage(of: oldEntity).contains(where: { $0.name == heldColumn.entity }) else { return false }
                    }
                }
            }
        }
        return true
    }
}

/// An index the migration gave a source index's b-tree could not be set up as SQLite must see
/// it; the migration is rolled back and made again without adopting indexes.
struct IndexAdoptionError: Error {
    var index: String
    var cause: String
}
