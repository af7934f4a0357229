extension StoreVerifier {
    /// The structural checks of `verify` on the store open on `database`, as an engine that
    /// changed it runs them inside its transaction before `COMMIT`: the bookkeeping tables,
    /// `Z_PRIMARYKEY` and each table's `Z_MAX`, the schema and indexes against `layout`, and
    /// the metadata's hashes; then, in the tables the engine wrote rows into (`written`, join
    /// tables included; all of them when nil), every row's entity, every reference, both sides
    /// of every one-to-one and the ordered positions. Not SQLite's integrity check, the content
    /// digest or the seal (any write changes those), nor the values' own rules (`Z_OPT`, stored
    /// values, external-binary markers): an engine that carries values as they are leaves those
    /// as the store held them, and `verify` is the one to find them. No notes: only what makes a
    /// store unclean. The tables in `entityNumbersCounted` the caller has counted as holding
    /// only rows of their entities, none abstract: their entity numbers are not read again.
    package static func structuralFindings(in database: Database, path: String, layout: StoreLayout, written: Set<String>? = nil,
                                           entityNumbersCounted: Set<String> = []) throws -> [Finding] {
        var run = Run(file: StoreFile(path: path, database: database), layout: layout, asBuilt: false)
        run.rowsChecked = written
        run.entityNumbersCounted = entityNumbersCounted
        guard try run.checkBookkeepingTables() else { return run.findings }
        let rows = try run.file.primaryKeyRows()
        let metadata = try run.checkMetadataRow()
        run.checkPrimaryKeyRows(rows, against: layout)
        try run.checkSchema(layout)
        try run.checkRows(layout, primaryKeys: rows)
        try run.checkOrderedPositions(layout)
        if let metadata { run.checkHashes(metadata, against: layout.model) }
        return run.findings.filter { !$0.isNote }
    }
}
