/// What an index is, whatever its name and spelling: its table, whether it is unique or partial,
/// and its key columns with their order and collation. Two indexes of one shape serve the same
/// queries and enforce the same uniqueness: `verify` compares shapes to tell an index that Core
/// Data's forward migration renamed or respelled (a note) from a uniqueness the store does not
/// enforce (a finding).
package struct IndexShape: Hashable {
    package struct Column: Hashable {
        package var name: String
        package var isDescending: Bool
        package var collation: String

        package init(name: String, isDescending: Bool, collation: String) {
            self.name = name
            self.isDescending = isDescending
            self.collation = collation
        }
    }

    var table: String
    package var isUnique: Bool
    package var isPartial: Bool
    package var columns: [Column]

    /// The shape of an index the layout implies, read from its SQL (which seedgen writes:
    /// `CREATE [UNIQUE] INDEX name ON table (column [COLLATE BINARY ASC|DESC], …)`).
    package init(_ index: IndexLayout) {
        let sql = index.createSQL
        table = index.table
        isUnique = sql.hasPrefix("CREATE UNIQUE INDEX")
        isPartial = false
        let list = sql.drop { $0 != "(" }.dropFirst().dropLast()
        columns = list.split(separator: ",").map { part in
            let words = part.split(separator: " ")
            let collation = words.firstIndex(of: "COLLATE").map { String(words[$0 + 1]) } ?? "BINARY"
            return Column(name: String(words.first ?? ""), isDescending: words.last == "DESC", collation: collation)
        }
    }

    /// The shape of the store's index `name` on `table`, as SQLite reads its SQL; nil for an
    /// index on an expression (its columns have no names).
    package static func stored(_ name: String, on table: String, in database: Database) throws(SQLiteError) -> IndexShape? {
        let columns = try database.rows(#"SELECT name, "desc", coll FROM pragma_index_xinfo(?) WHERE key = 1 ORDER BY seqno"#, [.text(name)])
        var shape = IndexShape(table: table, isUnique: false, isPartial: false, columns: [])
        for column in columns {
            guard let columnName = column[0].text else { return nil }
            shape.columns.append(Column(name: columnName, isDescending: column[1].integer == 1, collation: column[2].text ?? "BINARY"))
        }
        guard let flags = try database.rows(#"SELECT "unique", partial FROM pragma_index_list(?) WHERE name = ?"#, [.text(table), .text(name)]).first else {
            return nil
        }
        shape.isUnique = flags[0].integer == 1
        shape.isPartial = flags[1].integer == 1
        return shape
    }

    private init(table: String, isUnique: Bool, isPartial: Bool, columns: [Column]) {
        self.table = table
        self.isUnique = isUnique
        self.isPartial = isPartial
        self.columns = columns
    }
}
