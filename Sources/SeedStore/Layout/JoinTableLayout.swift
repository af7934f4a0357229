/// The join table of a many-to-many relationship pair.
package struct JoinTableLayout: Sendable, Hashable {
    /// `Z_<e><R>`, e.g. `Z_1BOOKS`.
    package var name: String
    /// The relationship the table is named after, and its declaring entity.
    package var entity: String
    package var relationship: String
    /// The inverse relationship and its declaring entity.
    package var inverseEntity: String
    package var inverseRelationship: String
    /// Holds the `Z_PK` of `entity`'s objects, e.g. `Z_1AUTHORS`.
    package var firstColumn: String
    /// Holds the `Z_PK` of the destination's objects, e.g. `Z_2BOOKS`.
    package var secondColumn: String
    /// Order columns: `Z_FOK_<first>` when the inverse is ordered, `Z_FOK_<second>` when `relationship` is.
    package var orderColumns: [String]

    /// `CREATE TABLE Z_1BOOKS ( Z_1AUTHORS INTEGER, Z_2BOOKS INTEGER, PRIMARY KEY (Z_1AUTHORS, Z_2BOOKS) )`.
    package var createSQL: String {
        let columns = ([firstColumn, secondColumn] + orderColumns).map { "\($0) INTEGER" }
        return "CREATE TABLE \(name) ( \(columns.joined(separator: ", ")), PRIMARY KEY (\(firstColumn), \(secondColumn)) )"
    }

    /// Its index, `<table>_<second>_INDEX ON <table> (<second>, <first>)`.
    package var index: IndexLayout {
        let name = "\(self.name)_\(secondColumn)_INDEX"
        return IndexLayout(name: name, table: self.name, createSQL: "CREATE INDEX \(name) ON \(self.name) (\(secondColumn), \(firstColumn))")
    }
}
