import SeedModel

/// The one writer of Core Data SQL for objects: every statement that reads or writes a row of
/// an entity table, a join table or `Z_PRIMARYKEY` on behalf of an object is made here, with
/// quoted identifiers, and both the importer (through `StoreBuilder.objectRows`) and the
/// runtime's `ObjectWriter` call it. A layout rule (where `Z_FOK_` goes, how positions are
/// numbered) is thus changed in one place.
///
/// Statements are compiled once and reused. When the rows of an import stream to a second
/// thread (`RowStream`), every statement here first waits for the rows queued so far, so the
/// connection is used by one thread at a time.
package final class ObjectRows {
    /// The layout the rows are in.
    package let layout: StoreLayout
    let database: Database
    let rowStream: RowStream?
    /// Compiled statements by what they do, so that the SQL text is built once per shape.
    private var statements: [StatementKey: Statement] = [:]

    /// What a statement does and on what: its cache key.
    struct StatementKey: Hashable {
        enum Kind: Hashable {
            case insert, rowsWhere, entityNumber, values, update, replaceDestination, countChange, delete
            case fillNulls, firstNull, firstPartial, readMax, writeMax, nextPosition, addJoinRow, removeJoinRow, joinedRows, countViolation, ledger
            case uniqueClash, uniqueClashNext
        }
        var kind: Kind
        var table: String
        var columns: [String] = []
        var numbers: [Int] = []
    }

    /// A row as a query finds it: its `Z_PK` and `Z_ENT`.
    package struct Row: Sendable, Hashable {
        /// `Z_PK`.
        package var primaryKey: Int64
        /// `Z_ENT`: the concrete entity's number.
        package var entityNumber: Int

        package init(primaryKey: Int64, entityNumber: Int) {
            self.primaryKey = primaryKey
            self.entityNumber = entityNumber
        }
    }

    init(database: Database, layout: StoreLayout, rowStream: RowStream? = nil) {
        self.database = database
        self.layout = layout
        self.rowStream = rowStream
    }

    // MARK: - Entity rows

    /// The INSERT of a new row of `entity`: parameter 1 is `Z_PK`, then one parameter per
    /// column of `columns`; `Z_ENT` is the entity's number and `Z_OPT` 1 (a fresh row).
    package func insertStatement(for entity: EntityLayout, columns: [String]) throws(SQLiteError) -> Statement {
        var prepared = false
        let insert = try statement(StatementKey(kind: .insert, table: entity.table, columns: columns, numbers: [entity.number])) {
            prepared = true
            let names = ["Z_PK", "Z_ENT", "Z_OPT"].map(Database.quote) + columns.map(Database.quote)
            let values = ["?", String(entity.number), "1"] + columns.map { _ in "?" }
            return "INSERT INTO \(Database.quote(entity.table)) (\(names.joined(separator: ", "))) VALUES (\(values.joined(separator: ", ")))"
        }
        // Registered once, when prepared.
        if prepared, let rowStream, let place = layout.tables.firstIndex(where: { $0.name == entity.table }) {
            rowStream.register(insert, shape: Self.rowShape(of: layout.tables[place], at: place, entity: entity.number, columns: columns))
        }
        return insert
    }

    /// How `insertStatement` fills `table`'s columns, in the table's order.
    static func rowShape(of table: TableLayout, at place: Int, entity: Int, columns: [String]) -> ContentDigest.RowShape {
        let offsets = Dictionary(columns.enumerated().map { ($0.element, $0.offset) }, uniquingKeysWith: { first, _ in first })
        let filled: [ContentDigest.RowShape.Column] = table.columns.map { column in
            offsets[column.name].map { .value($0, .init(declaredType: column.sqlType)) } ?? .null
        }
        return ContentDigest.RowShape(table: table.name, tablePlace: place, entity: entity, columns: [.primaryKey, .constant(Int64(entity)), .constant(1)] + filled)
    }

    /// Inserts a new row of `entity` with the given column values.
    package func insert(_ entity: EntityLayout, primaryKey: Int64, values: [(column: String, value: SQLValue)]) throws(SQLiteError) {
        let insert = try insertStatement(for: entity, columns: values.map(\.column))
        try insert.bind([.integer(primaryKey)] + values.map(\.value))
        try insert.run()
    }

    /// Takes the next `Z_PK` of `root`'s table from `Z_PRIMARYKEY.Z_MAX` and records it there.
    package func takePrimaryKey(forRoot root: EntityLayout) throws(SQLiteError) -> Int64 {
        let number = SQLValue.integer(Int64(root.number))
        let read = try statement(StatementKey(kind: .readMax, table: "Z_PRIMARYKEY")) { "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = ?" }
        let key = (try scalar(read, [number])?.integer ?? 0) + 1
        let write = try statement(StatementKey(kind: .writeMax, table: "Z_PRIMARYKEY")) { "UPDATE Z_PRIMARYKEY SET Z_MAX = ? WHERE Z_ENT = ?" }
        try run(write, [.integer(key), number])
        return key
    }

    /// The rows of `table` whose `column` holds `value`, among `entities`, in `Z_PK` order.
    package func rows(in table: String, where column: String, is value: SQLValue, among entities: [Int]) throws(SQLiteError) -> [Row] {
        let select = try statement(StatementKey(kind: .rowsWhere, table: table, columns: [column], numbers: entities)) {
            "SELECT Z_PK, Z_ENT FROM \(Database.quote(table)) WHERE \(Database.quote(column)) = ? AND Z_ENT IN (\(Self.list(entities))) ORDER BY Z_PK"
        }
        return try rows(select, [value]).compactMap(Self.row)
    }

    /// The `Z_ENT` of the row with this `Z_PK`; nil when there is none.
    package func entityNumber(of primaryKey: Int64, in table: String) throws(SQLiteError) -> Int? {
        let select = try statement(StatementKey(kind: .entityNumber, table: table)) { "SELECT Z_ENT FROM \(Database.quote(table)) WHERE Z_PK = ?" }
        return try scalar(select, [.integer(primaryKey)])?.integer.map(Int.init)
    }

    /// The values of `columns` in the row with this `Z_PK`; empty when there is no such row.
    package func values(of primaryKey: Int64, in table: String, columns: [String]) throws(SQLiteError) -> [SQLValue] {
        guard !columns.isEmpty else { return [] }
        let select = try statement(StatementKey(kind: .values, table: table, columns: columns)) {
            "SELECT \(columns.map(Database.quote).joined(separator: ", ")) FROM \(Database.quote(table)) WHERE Z_PK = ?"
        }
        return try rows(select, [.integer(primaryKey)]).first ?? []
    }

    /// Sets columns of the row with this `Z_PK`.
    package func update(_ primaryKey: Int64, in table: String, set assignments: [(column: String, value: SQLValue)]) throws(SQLiteError) {
        guard !assignments.isEmpty else { return }
        let update = try statement(StatementKey(kind: .update, table: table, columns: assignments.map(\.column))) {
            "UPDATE \(Database.quote(table)) SET \(assignments.map { "\(Database.quote($0.column)) = ?" }.joined(separator: ", ")) WHERE Z_PK = ?"
        }
        try run(update, assignments.map(\.value) + [.integer(primaryKey)])
    }

    /// Points every row of `table` whose `column` holds `from` at `to` instead (a foreign key
    /// that named a `Z_PK` reserved for an object that turned out to have another).
    package func replaceDestination(in table: String, column: String, from: Int64, to: Int64) throws(SQLiteError) {
        let update = try statement(StatementKey(kind: .replaceDestination, table: table, columns: [column])) {
            "UPDATE \(Database.quote(table)) SET \(Database.quote(column)) = ? WHERE \(Database.quote(column)) = ?"
        }
        try run(update, [.integer(to), .integer(from)])
    }

    /// Counts the row's `Z_OPT` up by one (an object changed in a save).
    package func countChange(of primaryKey: Int64, in table: String) throws(SQLiteError) {
        let update = try statement(StatementKey(kind: .countChange, table: table)) {
            "UPDATE \(Database.quote(table)) SET Z_OPT = IFNULL(Z_OPT, 0) + 1 WHERE Z_PK = ?"
        }
        try run(update, [.integer(primaryKey)])
    }

    /// Deletes the row with this `Z_PK`.
    package func delete(_ primaryKey: Int64, from table: String) throws(SQLiteError) {
        let delete = try statement(StatementKey(kind: .delete, table: table)) { "DELETE FROM \(Database.quote(table)) WHERE Z_PK = ?" }
        try run(delete, [.integer(primaryKey)])
    }

    /// Sets each of `defaults`' columns to its value in every row of entity `number` where it
    /// is NULL (the defaults of objects completed late), in one pass over the table.
    package func fillNulls(in table: String, ofEntity number: Int, with defaults: [(column: String, value: SQLValue)]) throws(SQLiteError) {
        guard !defaults.isEmpty else { return }
        let update = try statement(StatementKey(kind: .fillNulls, table: table, columns: defaults.map(\.column))) {
            let columns = defaults.map { Database.quote($0.column) }
            return "UPDATE \(Database.quote(table)) SET \(columns.map { "\($0) = IFNULL(\($0), ?)" }.joined(separator: ", ")) "
                + "WHERE Z_ENT = ? AND (\(columns.map { "\($0) IS NULL" }.joined(separator: " OR ")))"
        }
        try run(update, defaults.map(\.value) + [.integer(Int64(number))])
    }

    /// The first row of entity `number` (by `Z_PK`) where one of `columns` is NULL, with the
    /// index of the first such column; nil when every row has them all. One pass over the table.
    package func firstRow(in table: String, ofEntity number: Int, whereAnyNull columns: [String]) throws(SQLiteError) -> (primaryKey: Int64, column: Int)? {
        guard !columns.isEmpty else { return nil }
        let select = try statement(StatementKey(kind: .firstNull, table: table, columns: columns)) {
            let quoted = columns.map { Database.quote($0) }
            return "SELECT Z_PK, \(quoted.map { "\($0) IS NULL" }.joined(separator: ", ")) FROM \(Database.quote(table)) "
                + "WHERE Z_ENT = ? AND (\(quoted.map { "\($0) IS NULL" }.joined(separator: " OR "))) ORDER BY Z_PK LIMIT 1"
        }
        guard let row = try rows(select, [.integer(Int64(number))]).first, let pk = row[0].integer,
              let column = row.dropFirst().firstIndex(where: { $0.integer == 1 }) else { return nil }
        return (pk, column - 1)
    }

    /// The first row of entity `number` (by `Z_PK`) where one of `given` holds a value and one of
    /// `required` is NULL, with the index of the first such column of each: a value given in
    /// part. Nil when no row has one. One pass over the table.
    package func firstPartialRow(in table: String, ofEntity number: Int, given: [String], required: [String]) throws(SQLiteError) -> (primaryKey: Int64, given: Int, missing: Int)? {
        guard !given.isEmpty, !required.isEmpty else { return nil }
        let select = try statement(StatementKey(kind: .firstPartial, table: table, columns: given + ["|"] + required)) {
            let given = given.map { Database.quote($0) }, required = required.map { Database.quote($0) }
            return "SELECT Z_PK, \((given.map { "\($0) IS NOT NULL" } + required.map { "\($0) IS NULL" }).joined(separator: ", ")) FROM \(Database.quote(table)) "
                + "WHERE Z_ENT = ? AND (\(given.map { "\($0) IS NOT NULL" }.joined(separator: " OR "))) "
                + "AND (\(required.map { "\($0) IS NULL" }.joined(separator: " OR "))) ORDER BY Z_PK LIMIT 1"
        }
        guard let row = try rows(select, [.integer(Int64(number))]).first, let pk = row[0].integer else { return nil }
        let flags = row.dropFirst().map { $0.integer == 1 }
        guard let givenIndex = flags.prefix(given.count).firstIndex(of: true),
              let missingIndex = flags.dropFirst(given.count).firstIndex(of: true) else { return nil }
        return (pk, givenIndex, missingIndex - given.count)
    }

    // MARK: - Statements

    /// The compiled statement for `key`, made from `sql()` the first time; the row stream is
    /// flushed first, so the statement sees every row queued before it.
    func statement(_ key: StatementKey, _ sql: () -> String) throws(SQLiteError) -> Statement {
        try rowStream?.flush()
        if let cached = statements[key] { return cached }
        let statement = try database.prepare(sql())
        statements[key] = statement
        return statement
    }

    func rows(_ statement: Statement, _ arguments: [SQLValue]) throws(SQLiteError) -> [[SQLValue]] {
        defer { statement.reset() }
        try statement.bind(arguments)
        var rows: [[SQLValue]] = []
        while try statement.step() { rows.append(statement.row()) }
        return rows
    }

    func scalar(_ statement: Statement, _ arguments: [SQLValue]) throws(SQLiteError) -> SQLValue? {
        try rows(statement, arguments).first?.first
    }

    func run(_ statement: Statement, _ arguments: [SQLValue]) throws(SQLiteError) {
        try statement.bind(arguments)
        try statement.run()
    }

    /// Rows changed by the last statement.
    var changes: Int { database.changes }

    static func list(_ numbers: [Int]) -> String {
        numbers.map(String.init).joined(separator: ", ")
    }

    static func row(_ values: [SQLValue]) -> Row? {
        guard values.count >= 2, let key = values[0].integer, let number = values[1].integer else { return nil }
        return Row(primaryKey: key, entityNumber: Int(number))
    }
}

@available(*, unavailable)
extension ObjectRows: Sendable {}
