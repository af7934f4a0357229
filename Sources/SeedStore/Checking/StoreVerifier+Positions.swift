extension StoreVerifier.Run {
    /// Ordered to-many relationships: within each owner, every object has a position
    /// (`Z_FOK_…`) and no two share one, in a to-one's table and in join tables alike.
    mutating func checkOrderedPositions(_ layout: StoreLayout) throws {
        for table in layout.tables where try checksRows(of: table.name) && file.tableExists(table.name) {
            for column in table.columns {
                guard case .foreignOrder(let entity, let relationship) = column.role,
                      let key = table.columns.first(where: {
                          if case .foreignKey(entity, relationship, _) = $0.role { true } else { false }
                      }) else { continue }
                try checkPositions(in: table.name, position: column.name, holder: key.name, label: "\(entity).\(relationship)")
            }
        }
        for join in layout.joinTables where try checksRows(of: join.name) && file.tableExists(join.name) {
            for ordering in join.orderings {
                try checkPositions(in: join.name, position: ordering.column, holder: ordering.holderColumn, label: "\(join.entity).\(join.relationship)")
            }
        }
    }

    private mutating func checkPositions(in table: String, position: String, holder: String, label: String) throws {
        // A missing column is a `column` finding already (and SQLite would read a double-quoted
        // name it does not know as a string).
        let present = Set(try file.columns(of: table).map(\.name))
        guard present.contains(position), present.contains(holder) else { return }
        let location = "\(table).\(position) (\(label))"
        let (table, position, holder) = (Database.quote(table), Database.quote(position), Database.quote(holder))
        if let row = try database.rows("""
            SELECT COUNT(*), MIN(\(holder)) FROM (SELECT \(holder) FROM \(table) WHERE \(holder) IS NOT NULL AND \(position) IS NOT NULL
            GROUP BY \(holder), \(position) HAVING COUNT(*) > 1)
            """).first, let count = row[0].integer, count > 0 {
            report("ordered", location, expected: "one position per object within each owner",
                   found: "\(count) position(s) given to several objects, the first in the owner with Z_PK \(row[1])")
        }
        if let row = try database.rows("SELECT COUNT(*), MIN(\(holder)) FROM \(table) WHERE \(holder) IS NOT NULL AND \(position) IS NULL").first,
           let count = row[0].integer, count > 0 {
            report("ordered", location, expected: "a position for every object of an ordered relationship",
                   found: "\(count) object(s) without one, the first in the owner with Z_PK \(row[1])")
        }
    }
}
