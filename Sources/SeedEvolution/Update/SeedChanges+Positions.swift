import SeedStore

extension SeedChanges {
    /// Positions in ordered to-manys made one per member again where the new seed's objects
    /// and the store's now share one: each such owner's members renumbered as a build numbers
    /// them (2048, 3072, …) in the order of their positions (the new seed's, for its objects),
    /// then of `Z_PK`.
    func renumberPositions() throws {
        for table in store.tables {
            for column in table.columns {
                guard case .foreignOrder(let entity, let relationship) = column.role,
                      let toOne = store.toOneColumns(for: relationship, of: entity) else { continue }
                let list = OrderedListNumbering.Columns(table: table.name, holder: toOne.key, member: "Z_PK", position: column.name)
                try OrderedListNumbering(database: database).renumber(list, lists: .sharingPlaces, bumpingRowVersion: true)
            }
        }
    }
}
