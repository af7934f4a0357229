import SeedModel

extension ObjectWriter {
    /// Sets a to-one relationship (nil clears it) and keeps the inverse side right: a
    /// one-to-one partner's old partners are released, a to-many inverse gains and loses.
    public func relate(_ object: ObjectID, _ relationship: String, to target: ObjectID?) throws {
        let object = try resolve(object)
        let description = try self.relationship(relationship, of: object)
        guard !description.isToMany else {
            throw WriteError(.wrongKindOfProperty(entity: object.entity, property: relationship), "'\(object.entity).\(relationship)' is a to-many relationship; use add(_:_:_:) and remove(_:_:_:)")
        }
        let target = try target.map { try checkedDestination($0, of: description, from: object) }
        let current = try toOne(of: object, description)
        guard current != target else { return }
        let inverse = model.inverse(of: description)
        if let inverse, !inverse.isToMany {
            if let current {
                try setToOne(of: current, inverse, to: nil)
            }
            if let target, let previous = try toOne(of: target, inverse), previous != object {
                try setToOne(of: previous, description, to: nil)
            }
            if let target {
                try setToOne(of: target, inverse, to: object)
            }
        } else if inverse != nil {
            // The to-many side is stored on this side only; its objects still change.
            if let current { try markChanged(current) }
            if let target { try markChanged(target) }
        }
        try setToOne(of: object, description, to: target)
    }

    /// Adds `target` to a to-many relationship (and sets the inverse side).
    public func add(_ object: ObjectID, _ relationship: String, _ target: ObjectID) throws {
        let object = try resolve(object)
        let description = try toMany(relationship, of: object)
        let target = try checkedDestination(target, of: description, from: object)
        guard let inverse = model.inverse(of: description) else {
            try setOwner(of: target, object, through: description, linked: true)
            return
        }
        if !inverse.isToMany {
            try relate(target, inverse.name, to: object)
            return
        }
        let (join, objectIsFirst) = layout.joinTableSide(for: relationship, of: object.entity)!
        let (first, second) = objectIsFirst ? (object, target) : (target, object)
        if try rows.addJoinRow(join, first: first.primaryKey, second: second.primaryKey, places: []) {
            try markChanged(object)
            try markChanged(target)
        }
    }

    /// Removes `target` from a to-many relationship (and clears the inverse side).
    public func remove(_ object: ObjectID, _ relationship: String, _ target: ObjectID) throws {
        let object = try resolve(object)
        let description = try toMany(relationship, of: object)
        let target = try checkedDestination(target, of: description, from: object)
        try detach(object, from: target, through: description)
    }

    /// The objects a relationship of `object` leads to, in `Z_PK` order.
    public func destinations(of object: ObjectID, _ relationship: String) throws -> [ObjectID] {
        let object = try resolve(object)
        return try destinations(of: object, try self.relationship(relationship, of: object))
    }

    // MARK: - Internals

    func relationship(_ name: String, of object: ObjectID) throws -> RelationshipDescription {
        let entity = model.entity(named: object.entity)!
        guard let relationship = model.allRelationships(of: entity).first(where: { $0.name == name }), !relationship.isTransient else {
            throw WriteError(.unknownProperty(entity: object.entity, property: name), "entity '\(object.entity)' has no relationship '\(name)'")
        }
        return relationship
    }

    private func toMany(_ name: String, of object: ObjectID) throws -> RelationshipDescription {
        let description = try relationship(name, of: object)
        guard description.isToMany else {
            throw WriteError(.wrongKindOfProperty(entity: object.entity, property: name), "'\(object.entity).\(name)' is a to-one relationship; use relate(_:_:to:)")
        }
        return description
    }

    private func checkedDestination(_ target: ObjectID, of relationship: RelationshipDescription, from object: ObjectID) throws -> ObjectID {
        let target = try resolve(target)
        let destination = model.entity(named: relationship.destinationEntity)!
        guard model.entity(model.entity(named: target.entity)!, isKindOf: destination) else {
            throw WriteError(.wrongDestination(entity: object.entity, relationship: relationship.name), "\(object.entity).\(relationship.name) leads to \(relationship.destinationEntity), not to \(target)")
        }
        return target
    }

    /// The to-one's column and its companions (destination entity, position in an ordered inverse).
    private func toOneColumns(of object: ObjectID, _ relationship: RelationshipDescription) -> ToOneColumns {
        layout.toOneColumns(for: relationship.name, of: object.entity)!
    }

    private func toOne(of object: ObjectID, _ relationship: RelationshipDescription) throws -> ObjectID? {
        guard let key = try rows.destination(of: object.primaryKey, in: table(of: object), toOneColumns(of: object, relationship)) else { return nil }
        return try resolve(ObjectID(entity: relationship.destinationEntity, primaryKey: key))
    }

    /// Writes one to-one column (and its companions) and counts the object as changed.
    private func setToOne(of object: ObjectID, _ relationship: RelationshipDescription, to target: ObjectID?) throws {
        let row = target.map { ObjectRows.Row(primaryKey: $0.primaryKey, entityNumber: layout.entity(named: $0.entity)!.number) }
        try rows.setToOne(of: object.primaryKey, in: table(of: object), toOneColumns(of: object, relationship), to: row)
        try markChanged(object)
    }

    func destinations(of object: ObjectID, _ relationship: RelationshipDescription) throws -> [ObjectID] {
        if !relationship.isToMany {
            return try toOne(of: object, relationship).map { [$0] } ?? []
        }
        let destination = layout.entity(named: relationship.destinationEntity)!
        let found: [ObjectRows.Row]
        if let columns = layout.memberColumns(for: relationship.name, of: object.entity) {
            found = try rows.rows(in: destination.table, where: columns.key, is: .integer(object.primaryKey), among: destination.subtreeNumbers)
        } else {
            let (join, isFirst) = layout.joinTableSide(for: relationship.name, of: object.entity)!
            found = try rows.joinedRows(join, of: object.primaryKey, inFirstColumn: isFirst, destinationTable: destination.table)
        }
        return found.compactMap { row in
            layout.entity(number: row.entityNumber).map { ObjectID(entity: $0.name, primaryKey: row.primaryKey) }
        }
    }

    /// Puts `member` into `holder`'s to-many without an inverse, or with `linked` false takes
    /// it out, in the member's row (`memberColumns`). A member another object holds that way is
    /// refused: its row names one owner.
    private func setOwner(of member: ObjectID, _ holder: ObjectID, through relationship: RelationshipDescription, linked: Bool) throws {
        let columns = layout.memberColumns(for: relationship.name, of: holder.entity)!
        let current = try rows.destination(of: member.primaryKey, in: table(of: member), columns)
        if linked, let current, current != holder.primaryKey {
            throw WriteError(.ownedElsewhere(member, relationship: relationship.name),
                             "\(member) is in \(holder.entity).\(relationship.name) of \(holder.entity) #\(current) already: the relationship has no inverse, and its store holds one owner per object")
        }
        guard linked ? current == nil : current == holder.primaryKey else { return }
        let row = linked ? ObjectRows.Row(primaryKey: holder.primaryKey, entityNumber: layout.entity(named: holder.entity)!.number) : nil
        try rows.setToOne(of: member.primaryKey, in: table(of: member), columns, to: row)
        try markChanged(member)
        try markChanged(holder)
    }

    /// Undoes the link between `object` and `destination` through `relationship`, on both sides.
    func detach(_ object: ObjectID, from destination: ObjectID, through relationship: RelationshipDescription) throws {
        let inverse = model.inverse(of: relationship)
        if !relationship.isToMany {
            if try toOne(of: object, relationship) == destination { try relate(object, relationship.name, to: nil) }
        } else if let inverse, !inverse.isToMany {
            if try toOne(of: destination, inverse) == object { try relate(destination, inverse.name, to: nil) }
        } else if inverse == nil {
            try setOwner(of: destination, object, through: relationship, linked: false)
        } else {
            let (join, objectIsFirst) = layout.joinTableSide(for: relationship.name, of: object.entity)!
            let (first, second) = objectIsFirst ? (object, destination) : (destination, object)
            if try rows.removeJoinRow(join, first: first.primaryKey, second: second.primaryKey) {
                try markChanged(object)
                try markChanged(destination)
            }
        }
    }
}
