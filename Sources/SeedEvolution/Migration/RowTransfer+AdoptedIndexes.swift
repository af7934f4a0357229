import SeedModel
import SeedStore

extension RowTransfer {
    /// Gives each wanted index whose entries a source index holds already (the carriage's
    /// `adoptableIndexes`: its table took every row of one source table and nothing else, each
    /// key column carries one source column's values as they are) and that the store's index of
    /// that shape on the parked table has — that source index's b-tree, under
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
        let adoptable = carriage.adoptableIndexes
        var moves: [(index: IndexLayout, from: String, root: SQLValue)] = []
        var taken: Set<String> = []
        // Table by table, each table's indexes in the destination's order.
        for index in destination.indexes.enumerated().sorted(by: { ($0.element.table, $0.offset) < ($1.element.table, $1.offset) }).map(\.element) {
            guard let want = adoptable[index.name] else { continue }
            let candidates = try database.rows("SELECT name, rootpage FROM sqlite_master WHERE type = 'index' AND tbl_name = ? AND sql IS NOT NULL", [.text(want.aside)])
            for candidate in candidates {
                // The new name must be free once the candidate's row goes (a parked table's
                // other index may still have it).
                guard let name = candidate[0].text, !taken.contains(name),
                      try database.scalar("SELECT 1 FROM sqlite_master WHERE name = ? AND name <> ?", [.text(want.index.name), .text(name)]) == nil,
                      let shape = try IndexShape.stored(name, on: want.aside, in: database), want.isHeld(by: shape) else { continue }
                taken.insert(name)
                moves.append((want.index, name, candidate[1]))
                break
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
}

/// An index the migration gave a source index's b-tree could not be set up as SQLite must see
/// it; the migration is rolled back and made again without adopting indexes.
struct IndexAdoptionError: Error {
    var index: String
    var cause: String
}
