import SeedModel

extension StoreLayout {
    /// The stored relationship `name` of `entity` (declared there or above); nil when it has none.
    package func relationship(_ name: String, of entity: String) -> RelationshipDescription? {
        model.entity(named: entity).flatMap { description in
            model.allRelationships(of: description).first { $0.name == name && !$0.isTransient }
        }
    }

    /// The columns of the to-one `relationship` as seen from `entity` (declared there or above).
    package func toOneColumns(for relationship: String, of entity: String) -> ToOneColumns? {
        guard let description = model.entity(named: entity),
              let owner = model.declaringEntity(of: relationship, from: description)?.name,
              let key = column(for: relationship, of: entity),
              let table = self.entity(named: entity).flatMap({ table(named: $0.table) }) else { return nil }
        var columns = ToOneColumns(key: key)
        for column in table.columns {
            switch column.role {
            case .foreignEntity(owner, relationship): columns.entity = column.name
            case .foreignOrder(owner, relationship): columns.order = column.name
            default: break
            }
        }
        return columns
    }

    /// The columns of the destination's table that name each member's owner, for a to-many
    /// `relationship` of `entity` stored in its members' rows: its inverse to-one's columns, or,
    /// for a to-many without an inverse, the owner's column (`Z<n><NAME>`, only a key). nil for
    /// a to-one or a many-to-many.
    package func memberColumns(for relationship: String, of entity: String) -> ToOneColumns? {
        guard let description = self.relationship(relationship, of: entity), description.isToMany,
              let destination = self.entity(named: description.destinationEntity) else { return nil }
        if let inverse = model.inverse(of: description) {
            return inverse.isToMany ? nil : toOneColumns(for: inverse.name, of: destination.name)
        }
        guard let source = model.entity(named: entity),
              let owner = model.declaringEntity(of: relationship, from: source)?.name,
              let column = table(named: destination.table)?.columns.first(where: { $0.role == .ownerKey(entity: destination.name, owner: owner, relationship: relationship) })
        else { return nil }
        return ToOneColumns(key: column.name)
    }

    /// The join table of a many-to-many relationship, and whether `entity`'s objects go in its first column.
    package func joinTableSide(for relationship: String, of entity: String) -> (table: JoinTableLayout, isFirst: Bool)? {
        guard let table = joinTable(for: relationship, of: entity),
              let description = model.entity(named: entity),
              let owner = model.declaringEntity(of: relationship, from: description)?.name else { return nil }
        return (table, table.entity == owner && table.relationship == relationship)
    }
}

extension JoinTableLayout {
    /// Its order columns, each with the side it orders.
    package var orderings: [JoinOrdering] {
        orderColumns.map { column in
            // Z_FOK_<first> orders the first-side objects within each second-side object's list.
            let ordersFirst = column == "Z_FOK_\(firstColumn.dropFirst(2))"
            return JoinOrdering(column: column, ordersFirstSide: ordersFirst, holderColumn: ordersFirst ? secondColumn : firstColumn)
        }
    }
}
