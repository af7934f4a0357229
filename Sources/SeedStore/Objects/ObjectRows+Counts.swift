import SeedModel

extension ObjectRows {
    /// Where a to-many relationship's destinations are counted: the column in the destination
    /// table that names their owner (`memberColumns`), or the owner's column of a join table.
    package enum DestinationCount: Hashable {
        case foreignKey(table: String, column: String)
        case joinTable(table: String, ownerColumn: String)
    }

    /// The first object of `entities` in `table` (by `Z_PK`) whose number of destinations breaks
    /// a to-many's `minCount`/`maxCount` (0: no maximum), with that number; nil when none does.
    /// An optional relationship may also be empty.
    package func firstCountViolation(in table: String, ofEntities entities: [Int], object: Int64? = nil, destinations: DestinationCount,
                                     minimum: Int, maximum: Int, optional: Bool) throws(SQLiteError) -> (primaryKey: Int64, count: Int)? {
        let count: String
        switch destinations {
        case .foreignKey(let destination, let column):
            count = "(SELECT COUNT(*) FROM \(Database.quote(destination)) d WHERE d.\(Database.quote(column)) = o.Z_PK)"
        case .joinTable(let join, let column):
            count = "(SELECT COUNT(*) FROM \(Database.quote(join)) j WHERE j.\(Database.quote(column)) = o.Z_PK)"
        }
        let key = StatementKey(kind: .countViolation, table: table, columns: ["\(destinations)"], numbers: entities + [minimum, maximum, optional ? 1 : 0, object == nil ? 0 : 1])
        let select = try statement(key) {
            let outside = "n < \(minimum)" + (maximum > 0 ? " OR n > \(maximum)" : "")
            return """
                SELECT Z_PK, n FROM (SELECT o.Z_PK, \(count) AS n FROM \(Database.quote(table)) o WHERE o.Z_ENT IN (\(Self.list(entities)))\(object == nil ? "" : " AND o.Z_PK = ?"))
                WHERE (\(outside))\(optional ? " AND n > 0" : "") ORDER BY Z_PK LIMIT 1
                """
        }
        guard let row = try rows(select, object.map { [.integer($0)] } ?? []).first, let key = row[0].integer, let number = row[1].integer else { return nil }
        return (key, Int(number))
    }
}

extension ObjectRows {
    /// The first object of exactly `entity` (or just `object`) whose to-many `relationship` breaks
    /// the model's `minCount`/`maxCount`; nil when none does or the relationship has no bounds.
    package func firstCountViolation(of relationship: RelationshipDescription, from entity: String,
                                     object: Int64? = nil) throws(SQLiteError) -> (primaryKey: Int64, count: Int)? {
        guard relationship.isToMany, !relationship.isTransient, relationship.minCount > 0 || relationship.maxCount > 0,
              let owner = layout.entity(named: entity) else { return nil }
        let destinations: DestinationCount
        if let columns = layout.memberColumns(for: relationship.name, of: entity) {
            guard let destination = layout.entity(named: relationship.destinationEntity) else { return nil }
            destinations = .foreignKey(table: destination.table, column: columns.key)
        } else {
            guard let (join, ownerIsFirst) = layout.joinTableSide(for: relationship.name, of: entity) else { return nil }
            destinations = .joinTable(table: join.name, ownerColumn: ownerIsFirst ? join.firstColumn : join.secondColumn)
        }
        return try firstCountViolation(in: owner.table, ofEntities: [owner.number], object: object, destinations: destinations,
                                       minimum: relationship.minCount, maximum: relationship.maxCount, optional: relationship.isOptional)
    }
}
