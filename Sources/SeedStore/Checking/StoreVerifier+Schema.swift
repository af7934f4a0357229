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
    /// A store Core Data migrated forward may name a join table's columns as an earlier model
    /// version did (`Z_17USERS1` where a fresh store has `Z_17USERS`: same entity number, same
    /// stem, another count). Such a table is checked under the names it has, with a note.
    mutating func reconcileJoinTables(_ layout: StoreLayout) throws -> StoreLayout {
        var result = layout
        for join in layout.joinTables where try file.tableExists(join.name) {
            let expected = [join.firstColumn, join.secondColumn] + join.orderColumns
            let found = try file.columns(of: join.name).map(\.name)
            guard found != expected, found.count == expected.count,
                  zip(expected, found).allSatisfy({ Self.sameStem($0, $1) }) else { continue }
            var stored = join
            stored.firstColumn = found[0]
            stored.secondColumn = found[1]
            stored.orderColumns = Array(found.dropFirst(2))
            result = result.replacingJoinTable(named: join.name, with: stored)
            for (name, kept) in zip(expected, found) where name != kept {
                report("column", "\(join.name).\(kept)", expected: "the name \(name), as a fresh store has it",
                       found: "the name \(kept) (kept by a forward migration)", note: true)
            }
        }
        return result
    }

    /// True when two column names differ at most in the count after their stem.
    static func sameStem(_ lhs: String, _ rhs: String) -> Bool {
        func stem(_ name: String) -> Substring {
            name.dropLast(name.reversed().prefix { $0.isASCII && $0.isNumber }.count)
        }
        return stem(lhs) == stem(rhs)
    }

    /// Indexes the store holds that the model does not imply: what a forward migration keeps of
    /// an earlier model version. A note, not damage.
    mutating func noteExtraIndexes(_ layout: StoreLayout, stored: [String: String]) {
        let expected = Set(layout.indexes.map(\.name))
        for (name, sql) in stored.sorted(by: { $0.key < $1.key }) where !expected.contains(name) && !sql.isEmpty {
            report("index", "index \(name)", expected: "only the indexes the model implies", found: "\(sql) (an earlier model version's?)", note: true)
        }
    }
}
