/// Finding the rows that break a uniqueness constraint, so that an import can name them.
extension ObjectRows {
    /// Two rows whose constrained columns hold the same values.
    package struct UniqueClash: Sendable {
        /// The table.
        package var table: String
        /// The constrained columns and the value the two rows share in each.
        package var values: [(column: String, value: SQLValue)]
        /// The two rows, the earlier first.
        package var primaryKeys: (first: Int64, second: Int64)
        /// Their `Z_ENT`s (a table holds an entity and its sub-entities).
        package var entityNumbers: (first: Int, second: Int)
    }

    /// The first clash (by `Z_PK`) of the unique index one of the layout's `CREATE UNIQUE
    /// INDEX` statements makes: nil when the rows hold none, or when the statement is not one of
    /// that shape. Rows with a NULL in a constrained column never clash, as in SQLite's index.
    /// Runs only after the index failed: one grouping pass over the table, then one lookup.
    package func firstUniqueClash(of createIndexSQL: String) throws(SQLiteError) -> UniqueClash? {
        guard let on = createIndexSQL.range(of: " ON "), let open = createIndexSQL[on.upperBound...].firstIndex(of: "("),
              let close = createIndexSQL.lastIndex(of: ")"), open < close else { return nil }
        let table = createIndexSQL[on.upperBound..<open].filter { $0 != " " }
        let columns = createIndexSQL[createIndexSQL.index(after: open)..<close].split(separator: ",").map { part in
            String(part.split(separator: " ").first ?? "")
        }
        // Names from our own SQL, checked before they are put back into a query.
        func isName(_ name: some StringProtocol) -> Bool {
            !name.isEmpty && name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }
        }
        guard isName(table), !columns.isEmpty, columns.allSatisfy(isName) else { return nil }
        let quoted = columns.map { Database.quote($0) }
        let notNull = quoted.map { "\($0) IS NOT NULL" }.joined(separator: " AND ")
        let group = try statement(StatementKey(kind: .uniqueClash, table: table, columns: columns)) {
            // A bare column beside MIN() comes from the row that has the minimum (SQLite).
            "SELECT MIN(Z_PK), Z_ENT, \(quoted.joined(separator: ", ")) FROM \(Database.quote(table)) WHERE \(notNull) "
                + "GROUP BY \(quoted.joined(separator: ", ")) HAVING COUNT(*) > 1 ORDER BY 1 LIMIT 1"
        }
        guard let row = try rows(group, []).first, let first = row[0].integer else { return nil }
        let values = Array(row.dropFirst(2))
        let next = try statement(StatementKey(kind: .uniqueClashNext, table: table, columns: columns)) {
            "SELECT MIN(Z_PK), Z_ENT FROM \(Database.quote(table)) WHERE Z_PK > ? AND "
                + quoted.map { "\($0) = ?" }.joined(separator: " AND ")
        }
        guard let found = try rows(next, [.integer(first)] + values).first, let second = found[0].integer else { return nil }
        return UniqueClash(table: table, values: Array(zip(columns, values)).map { (column: $0.0, value: $0.1) }, primaryKeys: (first, second),
                           entityNumbers: (Int(row[1].integer ?? 0), Int(found[1].integer ?? 0)))
    }

    /// The first two objects (by `Z_PK`) of the entities numbered `entities` in `table` that
    /// give one key, `keySQL`'s over the row `t` (`ObjectNames.keySQL`: a key through a to-one,
    /// which no index holds), with that key; nil when every key is given once. One grouping
    /// pass over the table, then one lookup.
    package func firstKeyClash(in table: String, entities: [Int], keySQL: (key: String, given: String)) throws(SQLiteError) -> (first: Int64, second: Int64, key: String)? {
        try rowStream?.flush()
        let keyed = "SELECT t.Z_PK AS PK, \(keySQL.key) AS KEY FROM \(Database.quote(table)) t WHERE t.Z_ENT IN (\(Self.list(entities))) AND \(keySQL.given)"
        let group = try database.prepare("SELECT MIN(PK), KEY FROM (\(keyed)) GROUP BY KEY HAVING COUNT(*) > 1 ORDER BY 1 LIMIT 1")
        guard let row = try rows(group, []).first, let first = row[0].integer, let key = row[1].text else { return nil }
        let next = try database.prepare("SELECT MIN(PK) FROM (\(keyed)) WHERE PK > ? AND KEY = ?")
        guard let second = try scalar(next, [.integer(first), .text(key)])?.integer else { return nil }
        return (first, second, key)
    }
}
