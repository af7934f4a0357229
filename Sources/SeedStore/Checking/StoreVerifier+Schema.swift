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
        var stored: [String: String] = [:]
        for row in try database.rows("SELECT name, sql FROM sqlite_master WHERE type = 'index'") {
            stored[row[0].text ?? ""] = row[1].text ?? ""
        }
        noteExtraIndexes(layout, stored: stored)
        for index in layout.indexes {
            guard let sql = stored[index.name] else {
                report("index", "index \(index.name) on \(index.table)", expected: index.createSQL, found: "missing")
                continue
            }
            if sql != index.createSQL {
                report("index", "index \(index.name) on \(index.table)", expected: index.createSQL, found: sql)
            }
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

extension StoreVerifier.Run {
    /// Indexes the store holds that the model does not imply: what a forward migration keeps of
    /// an earlier model version. A note, not damage.
    mutating func noteExtraIndexes(_ layout: StoreLayout, stored: [String: String]) {
        let expected = Set(layout.indexes.map(\.name))
        for (name, sql) in stored.sorted(by: { $0.key < $1.key }) where !expected.contains(name) && !sql.isEmpty {
            report("index", "index \(name)", expected: "only the indexes the model implies", found: "\(sql) (an earlier model version's?)", note: true)
        }
    }
}
