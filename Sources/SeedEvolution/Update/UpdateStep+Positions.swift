import SeedStore

extension UpdateStep {
    /// Positions in ordered to-manys made one per member again where the new seed's objects
    /// and the store's now share one: each such owner's members renumbered as a build numbers
    /// them (2048, 3072, …) in the order of their positions (the new seed's, for its objects),
    /// then of `Z_PK`.
    func renumberPositions() throws {
        for table in store.tables {
            for column in table.columns {
                guard case .foreignOrder(let entity, let relationship) = column.role,
                      let toOne = store.toOneColumns(for: relationship, of: entity) else { continue }
                let (name, owner, position) = (Database.quote(table.name), Database.quote(toOne.key), Database.quote(column.name))
                let owners = try database.rows("""
                    SELECT DISTINCT \(owner) FROM main.\(name) WHERE \(owner) IS NOT NULL GROUP BY \(owner), \(position) HAVING COUNT(*) > 1
                    """)
                guard !owners.isEmpty else { continue }
                let renumber = try database.prepare("UPDATE main.\(name) SET \(position) = ?, Z_OPT = Z_OPT + 1 WHERE Z_PK = ?")
                for row in owners {
                    let members = try database.rows("SELECT Z_PK FROM main.\(name) WHERE \(owner) = ? ORDER BY \(position), Z_PK", [row[0]])
                    for (index, member) in members.enumerated() {
                        try renumber.bind([.integer(ObjectRows.storedPosition(ofPlace: Int64(index + 1))), member[0]])
                        try renumber.run()
                    }
                }
            }
        }
    }
}
