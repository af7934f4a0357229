
extension StoreReader {
    /// Throws unless each entity table of `layout` that the store holds is a table (not a view),
    /// its values keep `StoredValueRules` and each row's `Z_ENT` is an entity of that table:
    /// what `dump`, `fetch` and `diff` check before they read
    /// values, so that a wrong value is never printed or dumped as if it were right.
    package func requireReadableValues(of layout: StoreLayout) throws {
        let fingerprint = layout.schema + layout.entities.map(\.name)
        guard !readableLayouts.contains(fingerprint) else { return }
        for table in layout.tables {
            let kind = try file.database.scalar("SELECT type FROM sqlite_master WHERE name = ?", [.text(table.name)])?.text
            guard let kind else { continue }  // a missing table holds no objects (verify reports it)
            guard kind == "table" else {
                throw UnreadableStoreError(description: "\(table.name) is a \(kind), not a table: Core Data keeps the objects of \(table.rootEntity) in a table")
            }
            if let violation = try StoredValueRules.violations(in: table, database: file.database).first {
                throw UnreadableStoreError(description: "\(violation.finding) (seedgen verify lists every such column)")
            }
            // A row of an entity another table holds would be read with that entity's columns.
            if let root = layout.entity(named: table.rootEntity),
               let row = try file.database.rows("""
                   SELECT Z_PK, Z_ENT FROM \(Database.quote(table.name)) WHERE Z_ENT IS NULL OR Z_ENT NOT IN (\(root.subtreeList)) LIMIT 1
                   """).first {
                throw UnreadableStoreError(description: "\(table.name) row \(row[0]) has Z_ENT \(row[1]), not an entity stored in \(table.name) (\(root.subtreeList)); Core Data would misread it (seedgen verify lists every such row)")
            }
        }
        readableLayouts.insert(fingerprint)
    }
}
