import SeedModel
import SeedStore

extension RowTransfer {
    /// Rewrites the entity numbers a kept table holds (`Z_ENT`, and the destination entity
    /// columns of its to-ones) where the destination numbers entities otherwise; returns the
    /// rows each of its entities has.
    func renumberKeptTables() throws -> [String: Int] {
        let renumbered = source.entities.compactMap { entity -> (Int, Int)? in
            successor[entity.name].flatMap { destination.entity(named: $0) }.map { (entity.number, $0.number) }
        }
        let changes = renumbered.contains { $0.0 != $0.1 }
        let cases = renumbered.map { "WHEN \($0.0) THEN \($0.1)" }.joined(separator: " ")
        var counts: [String: Int] = [:]
        for name in kept.sorted() {
            guard let table = destination.table(named: name) else { continue }
            if changes {
                try database.execute("UPDATE \(Database.quote(name)) SET Z_ENT = CASE Z_ENT \(cases) END")
                for column in table.columns {
                    guard case .foreignEntity = column.role else { continue }
                    let quoted = Database.quote(column.name)
                    try database.execute("UPDATE \(Database.quote(name)) SET \(quoted) = CASE \(quoted) \(cases) END WHERE \(quoted) IS NOT NULL")
                }
            }
            for entity in destination.entities where entity.table == name {
                counts[entity.name] = Int(try database.scalar("SELECT COUNT(*) FROM \(Database.quote(name)) WHERE Z_ENT = ?", [.integer(Int64(entity.number))])?.integer ?? 0)
            }
        }
        return counts
    }

    /// The destination's indexes: those of a kept table that it holds already, under the same
    /// name and SQL, stay, as do the `adopted` ones; a kept table's others go; every missing
    /// one is made.
    func makeIndexes(adopted: Set<String>) throws {
        var present: [String: String] = [:]
        for row in try database.rows("SELECT name, tbl_name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL") {
            guard let name = row[0].text, let table = row[1].text, kept.contains(table) || adopted.contains(name) else { continue }
            present[name] = row[2].text ?? ""
        }
        let wanted = Dictionary(destination.indexes.map { ($0.name, $0.createSQL) }, uniquingKeysWith: { first, _ in first })
        for (name, sql) in present where wanted[name] != sql {
            try database.execute("DROP INDEX \(Database.quote(name))")
        }
        let missing = destination.indexes.filter { present[$0.name] != $0.createSQL }
        guard !missing.isEmpty else { return }
        // Sorting an index's keys in small pieces, one sorted by a second thread while the
        // first reads on, and merging them is faster than sorting one large list in the page
        // cache's memory (1M random keys: 0.42 s against 0.80 s), and bounds the sorter's memory
        // to 2 × `indexSortCache` whatever the rows.
        try database.execute("PRAGMA cache_size = -\(Self.indexSortCache / 1024); PRAGMA threads = 2")
        for index in missing { try database.execute(index.createSQL) }
        try database.execute("PRAGMA cache_size = -\(Database.durableWriterCache / 1024); PRAGMA threads = 0")
    }

    /// The page cache, and so the sorter's memory per thread, while the indexes are made.
    static let indexSortCache = 2 << 20
}
