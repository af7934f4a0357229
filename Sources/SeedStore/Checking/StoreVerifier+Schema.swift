extension StoreVerifier.Run {
    /// Every table, column and index the model implies, with Core Data's types and SQL text.
    mutating func checkSchema(_ layout: StoreLayout) throws {
        let base = [("Z_PK", "INTEGER"), ("Z_ENT", "INTEGER"), ("Z_OPT", "INTEGER")]
        for table in layout.tables {
            try checkTable(table.name, columns: base + table.columns.map { ($0.name, $0.sqlType) })
        }
        for join in layout.joinTables {
            try checkTable(join.name, columns: ([join.firstColumn, join.secondColumn] + join.orderColumns).map { ($0, "INTEGER") })
        }
        try checkIndexes(layout)
        try checkPersistentHistory()
    }

    /// Core Data's persistent-history tables, where present, are exactly as the framework makes them.
    private mutating func checkPersistentHistory() throws {
        for row in try database.rows("SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name IN ('ACHANGE', 'ATRANSACTION', 'ATRANSACTIONSTRING') ORDER BY name") {
            let name = row[0].text ?? "", sql = row[1].text ?? ""
            if PersistentHistoryLayout.tables[name] != sql {
                report("table", "table \(name)", expected: "Core Data's persistent-history table: \(PersistentHistoryLayout.tables[name] ?? "")", found: sql)
            }
        }
    }

    /// The model's indexes. What Core Data's forward migrations leave is a note: an index under
    /// another name or spelled as an earlier framework wrote it, one missing (queries are slower,
    /// nothing is misread), one the model no longer implies. A finding is what changes what the
    /// store accepts: a uniqueness constraint's index missing or not unique, or a unique index
    /// the model does not imply (Core Data's saves would fail where the model allows them).
    private mutating func checkIndexes(_ layout: StoreLayout) throws {
        typealias StoredIndex = (name: String, sql: String, shape: IndexShape?)
        var stored: [StoredIndex] = []
        for row in try database.rows("SELECT name, tbl_name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL ORDER BY name") {
            let name = row[0].text ?? "", table = row[1].text ?? ""
            stored.append((name, row[2].text ?? "", try IndexShape.stored(name, on: table, in: database)))
        }
        let storedByName = [String: StoredIndex](stored.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        // Stored indexes under a model index's name answer for that one only.
        var accounted = Set(layout.indexes.map(\.name).filter { storedByName[$0] != nil })
        for index in layout.indexes {
            let expected = IndexShape(index)
            let location = "index \(index.name) on \(index.table)"
            if let found = storedByName[index.name] {
                if found.sql == index.createSQL { continue }
                if found.shape == expected {
                    report("index", location, expected: index.createSQL, found: "\(found.sql) (the same index, spelled as an earlier framework wrote it)", note: true)
                } else {
                    let harmless = found.shape?.isUnique == expected.isUnique && found.shape?.isPartial == false
                    report("index", location, expected: index.createSQL, found: found.sql + (harmless ? " (a different index under its name: queries may be slower, nothing is misread)" : ""), note: harmless)
                }
            } else if let other = stored.first(where: { $0.shape == expected && !accounted.contains($0.name) }) {
                accounted.insert(other.name)
                report("index", location, expected: index.createSQL, found: "the same index named \(other.name) (as a forward migration leaves it)", note: true)
            } else {
                report("index", location, expected: index.createSQL,
                       found: expected.isUnique ? "missing (the store does not enforce the uniqueness constraint)" : "missing (queries that use it are slower; nothing is misread)",
                       note: !expected.isUnique)
            }
        }
        for (name, sql, shape) in stored where !accounted.contains(name) && PersistentHistoryLayout.indexes[name] != sql {
            let unique = shape?.isUnique ?? sql.hasPrefix("CREATE UNIQUE")
            report("index", "index \(name)", expected: "only the indexes the model implies",
                   found: unique ? "\(sql) (a uniqueness the model does not have: saves it allows would fail)" : "\(sql) (an earlier model version's?)",
                   note: !unique)
        }
    }

    private mutating func checkTable(_ table: String, columns expected: [(String, String)]) throws {
        guard try file.tableExists(table) else {
            report("table", "table \(table)", expected: "present", found: "missing")
            return
        }
        let found = try file.columns(of: table)
        let foundTypes = Dictionary(found.map { ($0.name, $0.type) }, uniquingKeysWith: { first, _ in first })
        for (name, type) in expected {
            guard let foundType = foundTypes[name] else {
                report("column", "\(table).\(name)", expected: "a \(type) column", found: "missing")
                continue
            }
            if foundType != type {
                report("column", "\(table).\(name)", expected: "type \(type)", found: "type \(foundType)")
            }
        }
        let expectedNames = Set(expected.map(\.0))
        for column in found where !expectedNames.contains(column.name) {
            report("column", "\(table).\(column.name)", expected: "no such column in the model", found: "a \(column.type) column")
        }
    }
}
