/// What an import keeps beside the rows until it finishes, in TEMP tables of the build's
/// connection (never part of the store: `VACUUM INTO` copies the main schema only), so that it
/// does not grow in memory with the number of rows: the references by natural key of simple
/// to-ones that the importer cannot put into a new row itself (those given in a merge, and those
/// of to-ones that also store the destination's entity), in `seedgen_ref_<n>` (the source's
/// `Z_PK`, where the reference was given, the key), written with the rows through the row stream
/// and resolved all at once by `resolveKeyReferences`, one UPDATE joining the key columns
/// instead of a query per row.
extension ObjectRows {
    /// One relationship's references by key, resolved at the end of an import.
    package struct KeyReferences: Sendable {
        /// The ledger's number (one per relationship of an entity).
        package var number: Int
        /// The source entity's table and the to-one's columns there.
        package var sourceTable: String
        package var columns: ToOneColumns
        /// The destination's table, key columns and the entity numbers a key may name.
        package var destinationTable: String
        package var keyColumns: [String]
        package var destinations: [Int]

        package init(number: Int, sourceTable: String, columns: ToOneColumns, destinationTable: String, keyColumns: [String], destinations: [Int]) {
            self.number = number
            self.sourceTable = sourceTable
            self.columns = columns
            self.destinationTable = destinationTable
            self.keyColumns = keyColumns
            self.destinations = destinations
        }

        var ledger: String { Database.quote("seedgen_ref_\(number)") }
    }

    /// The INSERT recording one reference: parameter 1 is the source's `Z_PK`, then file, line,
    /// column, the key as given (text) and the key's values. Prepare once, append through the
    /// row stream.
    package func referenceStatement(for references: KeyReferences) throws(SQLiteError) -> Statement {
        try statement(StatementKey(kind: .ledger, table: references.sourceTable, columns: ["reference"], numbers: [references.number])) {
            let keys = references.keyColumns.indices.map { "k\($0)" }
            try? database.execute("CREATE TEMP TABLE IF NOT EXISTS \(references.ledger) (src INTEGER, file INTEGER, line INTEGER, col INTEGER, given TEXT, \(keys.joined(separator: ", ")))")
            let columns = ["src", "file", "line", "col", "given"] + keys
            return "INSERT INTO \(references.ledger) (\(columns.joined(separator: ", "))) VALUES (\(columns.map { _ in "?" }.joined(separator: ", ")))"
        }
    }

    /// A reference the resolution could not make: one that names no object, or one whose source
    /// already holds another object.
    package struct ReferenceProblem: Sendable {
        package var source: Int64
        /// Where the reference was given: the file's number in the import, line and column.
        package var file: Int
        package var line: Int
        package var column: Int
        package var given: String
        /// The `Z_PK` the source held already; nil when the key names no object.
        package var holding: Int64?
        /// The key an earlier reference of the same source gave, when two disagree.
        package var earlierGiven: String?
    }

    /// Sets every recorded reference of `references` in one UPDATE: the source's key column
    /// (and the destination's `Z_ENT` where the layout keeps it) to the destination row whose
    /// key columns equal the given values. Returns the first problem in input order instead,
    /// changing nothing: a key no destination has, or a source that already names another
    /// object (given twice, or nested elsewhere). `checkConflicts` compares every source's
    /// references with each other first (needed only when objects were merged).
    package func resolveKeyReferences(_ references: KeyReferences, checkConflicts: Bool) throws(SQLiteError) -> ReferenceProblem? {
        try rowStream?.flush()
        let destination = Database.quote(references.destinationTable)
        let source = Database.quote(references.sourceTable)
        let key = Database.quote(references.columns.key)
        /// The destination row `d` that reference `r` names.
        func match(_ d: String = "d", _ r: String = "r") -> String {
            references.keyColumns.enumerated().map { "\(d).\(Database.quote($0.element)) = \(r).k\($0.offset)" }.joined(separator: " AND ")
                + " AND \(d).Z_ENT IN (\(Self.list(references.destinations)))"
        }
        func problem(_ sql: String) throws(SQLiteError) -> ReferenceProblem? {
            guard let row = try database.rows(sql).first, let src = row[0].integer else { return nil }
            return ReferenceProblem(source: src, file: Int(row[1].integer ?? 0), line: Int(row[2].integer ?? 0), column: Int(row[3].integer ?? 0),
                                    given: row[4].text ?? row[4].description, holding: row[5].integer, earlierGiven: row.count > 6 ? row[6].text : nil)
        }
        // Merged objects may carry two references of one to-one: the later one that disagrees is the error.
        if checkConflicts {
            let index = Database.quote("seedgen_ref_\(references.number)_src")
            try database.execute("CREATE INDEX IF NOT EXISTS temp.\(index) ON \(references.ledger) (src)")
            let differs = references.keyColumns.indices.map { "r2.k\($0) IS NOT r.k\($0)" }.joined(separator: " OR ")
            if let twice = try problem("""
                SELECT r2.src, r2.file, r2.line, r2.col, r2.given, NULL, r.given FROM \(references.ledger) r
                JOIN \(references.ledger) r2 ON r2.src = r.src AND r2.rowid > r.rowid AND (\(differs)) ORDER BY r2.rowid LIMIT 1
                """) {
                return twice
            }
        }
        // One statement: every reference names an object its source does not contradict. When fewer sources changed than references were recorded (or objects were
        // merged), the problem is looked for; the build then fails, so the update does no harm.
        var assignments = ["\(key) = d.Z_PK"]
        if let entity = references.columns.entity { assignments.append("\(Database.quote(entity)) = d.Z_ENT") }
        try database.execute("""
            UPDATE \(source) AS s SET \(assignments.joined(separator: ", "))
            FROM \(references.ledger) r JOIN \(destination) d ON \(match())
            WHERE s.Z_PK = r.src AND (s.\(key) IS NULL OR s.\(key) = d.Z_PK)
            """)
        let changed = database.changes
        let recorded = try database.scalar("SELECT COUNT(*) FROM \(references.ledger)")?.integer ?? 0
        if changed != recorded || checkConflicts {
            if let dangling = try problem("""
                SELECT r.src, r.file, r.line, r.col, r.given, NULL FROM \(references.ledger) r
                WHERE NOT EXISTS (SELECT 1 FROM \(destination) d WHERE \(match())) ORDER BY r.rowid LIMIT 1
                """) {
                return dangling
            }
            // A source holding another object: set by a nested element, or by a second reference.
            if let held = try problem("""
                SELECT r.src, r.file, r.line, r.col, r.given, s.\(key) FROM \(references.ledger) r JOIN \(source) s ON s.Z_PK = r.src
                JOIN \(destination) d ON \(match()) WHERE s.\(key) <> d.Z_PK ORDER BY r.rowid LIMIT 1
                """) {
                return held
            }
        }
        try database.execute("DROP TABLE \(references.ledger)")
        return nil
    }
}
