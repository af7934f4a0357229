import SeedStore

/// The names `StoreDiff` compares two stores by, in each store's own connection.
extension ObjectNames {
    /// Fills `temp.seedgen_names` for every concrete entity of `layout` in `database`: objects
    /// the store's seed record (or a seed's identifiers) names by identifier keep those names.
    func create(in database: Database) throws {
        let source = try SeedRecord.identifierSource(in: database)
        let numbers = source == nil ? nil : try RecordNumbers(in: database, layout: layout)
        try database.execute("""
            CREATE TEMP TABLE seedgen_names (tbl INTEGER, pk INTEGER, entity TEXT, key TEXT, PRIMARY KEY (tbl, pk)) WITHOUT ROWID
            """)
        for entity in layout.entities where !entity.isAbstract {
            let identifiers = source.flatMap { source in numbers?.recorded(entity.number).map { Identifiers(table: source, entity: $0) } }
            guard let named = namedRows(of: entity, identifiedIn: identifiers) else { continue }
            let statement = try database.prepare("INSERT INTO temp.seedgen_names (tbl, pk, entity, key) SELECT ?, Z_PK, ?, key FROM (\(named))")
            try statement.bind([.integer(Int64(tableNumbers[entity.table]!)), .text(entity.name)])
            try statement.run()
        }
        try database.execute("CREATE INDEX temp.seedgen_names_by_key ON seedgen_names (entity, key)")
    }
}
