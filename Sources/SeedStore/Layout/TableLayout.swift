/// One root entity's table, holding the rows of every entity below it.
package struct TableLayout: Sendable, Hashable {
    /// `Z` + the upper-cased root entity name.
    package var name: String
    /// The root entity.
    package var rootEntity: String
    /// The property columns in Core Data's order.
    package var columns: [ColumnLayout]
    /// Table constraints (`CONSTRAINT ZA_ZB UNIQUE (ZA, ZB)`: uniqueness constraints before framework 836).
    package var constraints: [String] = []

    /// `CREATE TABLE ZBOOK ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZTITLE VARCHAR )`;
    /// with table constraints there is no blank before the last parenthesis (as Core Data writes it).
    package var createSQL: String {
        let definitions = ["Z_PK INTEGER PRIMARY KEY", "Z_ENT INTEGER", "Z_OPT INTEGER"]
            + columns.map { "\($0.name) \($0.sqlType)" }
        if !constraints.isEmpty {
            return "CREATE TABLE \(name) ( \((definitions + constraints).joined(separator: ", ")))"
        }
        return "CREATE TABLE \(name) ( \(definitions.joined(separator: ", ")) )"
    }
}
