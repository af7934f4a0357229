/// A store that holds what Core Data would not read back as the model's values.
package struct UnreadableStoreError: Error, Sendable, CustomStringConvertible {
    /// What is wrong and where, as `verify` would report it.
    package var description: String
}

extension StoreReader {
    /// Throws unless each entity table of `layout` that the store holds is a table (not a view)
    /// and its values keep `StoredValueRules`: what `dump` and `fetch` check before they read
    /// values, so that a wrong value is never printed or dumped as if it were right.
    package func requireReadableValues(of layout: StoreLayout) throws {
        for table in layout.tables {
            let kind = try file.database.scalar("SELECT type FROM sqlite_master WHERE name = ?", [.text(table.name)])?.text
            guard let kind else { continue }  // a missing table holds no objects (verify reports it)
            guard kind == "table" else {
                throw UnreadableStoreError(description: "\(table.name) is a \(kind), not a table: Core Data keeps the objects of \(table.rootEntity) in a table")
            }
            if let violation = try StoredValueRules.violations(in: table, database: file.database).first {
                throw UnreadableStoreError(description: "\(violation.finding) (seedgen verify lists every such column)")
            }
        }
    }
}
