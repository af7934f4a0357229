import SeedModel

extension ObjectRows {
    // MARK: - To-one columns

    /// The destination `Z_PK` a to-one column holds in the row with this `Z_PK`.
    package func destination(of primaryKey: Int64, in table: String, _ columns: ToOneColumns) throws(SQLiteError) -> Int64? {
        try values(of: primaryKey, in: table, columns: [columns.key]).first?.integer
    }

    /// Sets a to-one relationship with its companion columns: the destination's `Z_ENT` (when
    /// the destination has sub-entities) and the object's position in the destination's
    /// ordered to-many (its 1-based `place`, or after the last one when nil). `nil` clears all three.
    package func setToOne(of primaryKey: Int64, in table: String, _ columns: ToOneColumns,
                          to target: Row?, place: Int64? = nil) throws(SQLiteError) {
        var assignments: [(column: String, value: SQLValue)] = [(columns.key, target.map { .integer($0.primaryKey) } ?? .null)]
        if let column = columns.entity {
            assignments.append((column, target.map { .integer(Int64($0.entityNumber)) } ?? .null))
        }
        if let column = columns.order {
            if let target {
                var value = place.map(Self.storedPosition)
                if value == nil {
                    value = try nextPosition(in: table, column: column, holderColumn: columns.key, holder: target.primaryKey)
                }
                assignments.append((column, value.map(SQLValue.integer) ?? .null))
            } else {
                assignments.append((column, .null))
            }
        }
        try update(primaryKey, in: table, set: assignments)
    }

    // MARK: - Join tables

    /// Adds one row to a many-to-many join table: the two objects (`first` in its first
    /// column) and one 1-based place per `join.orderings` (nil: after the holder's last one).
    /// Returns false when the row was there already.
    @discardableResult
    package func addJoinRow(_ join: JoinTableLayout, first: Int64, second: Int64, places: [Int64?]) throws(SQLiteError) -> Bool {
        var arguments: [SQLValue] = [.integer(first), .integer(second)]
        for (index, ordering) in join.orderings.enumerated() {
            let holder = ordering.ordersFirstSide ? second : first
            if index < places.count, let given = places[index] {
                arguments.append(.integer(Self.storedPosition(ofPlace: given)))
            } else {
                arguments.append(.integer(try nextPosition(in: join.name, column: ordering.column,
                                                           holderColumn: ordering.holderColumn, holder: holder)))
            }
        }
        let insert = try statement(StatementKey(kind: .addJoinRow, table: join.name)) {
            let columns = ([join.firstColumn, join.secondColumn] + join.orderColumns).map(Database.quote)
            return "INSERT OR IGNORE INTO \(Database.quote(join.name)) (\(columns.joined(separator: ", "))) VALUES (\(columns.map { _ in "?" }.joined(separator: ", ")))"
        }
        try run(insert, arguments)
        return changes > 0
    }

    /// Removes one row of a join table; returns false when there was none.
    @discardableResult
    package func removeJoinRow(_ join: JoinTableLayout, first: Int64, second: Int64) throws(SQLiteError) -> Bool {
        let delete = try statement(StatementKey(kind: .removeJoinRow, table: join.name)) {
            "DELETE FROM \(Database.quote(join.name)) WHERE \(Database.quote(join.firstColumn)) = ? AND \(Database.quote(join.secondColumn)) = ?"
        }
        try run(delete, [.integer(first), .integer(second)])
        return changes > 0
    }

    /// The rows of `destinationTable` joined to `primaryKey` through a join table, whose own
    /// objects are in `column` (the other column leads to the destinations), in `Z_PK` order.
    package func joinedRows(_ join: JoinTableLayout, of primaryKey: Int64, inFirstColumn: Bool, destinationTable: String) throws(SQLiteError) -> [Row] {
        let (mine, theirs) = inFirstColumn ? (join.firstColumn, join.secondColumn) : (join.secondColumn, join.firstColumn)
        let select = try statement(StatementKey(kind: .joinedRows, table: join.name, columns: [mine, destinationTable])) {
            """
            SELECT d.Z_PK, d.Z_ENT FROM \(Database.quote(join.name)) j JOIN \(Database.quote(destinationTable)) d ON d.Z_PK = j.\(Database.quote(theirs))
            WHERE j.\(Database.quote(mine)) = ? ORDER BY d.Z_PK
            """
        }
        return try rows(select, [.integer(primaryKey)]).compactMap(Self.row)
    }

    // MARK: - Ordered positions

    /// Core Data's step between ordered positions: every real store with ordered data holds
    /// 2048, 3072, 4096, … (1024 × (k + 1) for the k-th object), in `Z_FOK_` columns and join
    /// tables alike.
    package static let positionStep: Int64 = 1024

    /// The stored position of the object at 1-based `place` in an ordered to-many.
    package static func storedPosition(ofPlace place: Int64) -> Int64 {
        positionStep * (place + 1)
    }

    /// The next stored position in an ordered to-many: one step after the highest that `holder`
    /// has in `column` (2048 for the first object).
    func nextPosition(in table: String, column: String, holderColumn: String, holder: Int64) throws(SQLiteError) -> Int64 {
        let select = try statement(StatementKey(kind: .nextPosition, table: table, columns: [column, holderColumn])) {
            "SELECT IFNULL(MAX(\(Database.quote(column))), \(Self.positionStep)) + \(Self.positionStep) FROM \(Database.quote(table)) WHERE \(Database.quote(holderColumn)) = ?"
        }
        return try scalar(select, [.integer(holder)])?.integer ?? Self.storedPosition(ofPlace: 1)
    }
}
