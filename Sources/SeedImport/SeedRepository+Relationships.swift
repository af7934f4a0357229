import SeedModel
import SeedStore

extension SeedRepository {
    /// Relates `source` to `target` through `relationship` of the source's entity, and sets
    /// the inverse side too. `position` is the target's 1-based place in an ordered to-many
    /// (nil: after the ones already there).
    public func link(_ source: ObjectReference, _ relationship: String, to target: ObjectReference,
                     position: Int? = nil, at location: InputLocation) throws(InputError) {
        let plan = try plan(for: source.entity, at: location)
        guard let description = plan.relationships[relationship] else {
            throw InputError("entity '\(source.entity)' has no relationship '\(relationship)'", at: location)
        }
        let targetEntity = model.entity(named: target.entity)!
        guard let destination = model.entity(named: description.destinationEntity),
              model.entity(targetEntity, isKindOf: destination) else {
            throw InputError("\(source.entity).\(relationship) leads to \(description.destinationEntity), not to \(target.entity)", at: location)
        }
        let inverse = model.inverse(of: description)
        let targetPlan = try self.plan(for: target.entity, at: location)
        if !description.isToMany {
            try setToOne(source, plan.toOnes[relationship]!, to: target, order: nil, at: location)
            if let inverse, !inverse.isToMany {
                try setToOne(target, targetPlan.toOnes[inverse.name]!, to: source, order: nil, at: location)
            }
        } else if let inverse, !inverse.isToMany {
            let order = description.isOrdered ? position : nil
            try setToOne(target, targetPlan.toOnes[inverse.name]!, to: source, order: order, at: location)
        } else {
            try addJoinRow(source, description, target, position: position, at: location)
        }
    }

    /// Relates `source` to the object whose natural key is `key`; resolved now when that
    /// object exists, otherwise at `finish` (so references may come before their objects).
    public func link(_ source: ObjectReference, _ relationship: String, toKey key: String, at location: InputLocation) throws(InputError) {
        if let target = try resolve(source, relationship, key: key, at: location) {
            try link(source, relationship, to: target, at: location)
        } else {
            pending.append((source, relationship, key, location))
        }
    }

    /// The object a key names, or nil when it is not (yet) written.
    private func resolve(_ source: ObjectReference, _ relationship: String, key: String, at location: InputLocation) throws(InputError) -> ObjectReference? {
        let plan = try plan(for: source.entity, at: location)
        guard let description = plan.relationships[relationship] else {
            throw InputError("entity '\(source.entity)' has no relationship '\(relationship)'", at: location)
        }
        let destination = try self.plan(for: description.destinationEntity, at: location)
        guard let constraint = destination.key, constraint.names.count == 1, let slot = destination.attributes[constraint.names[0]] else {
            throw InputError("\(source.entity).\(relationship) names its \(description.destinationEntity) by key '\(key)', but \(description.destinationEntity) has no single-attribute uniqueness constraint to be named by; nest the object instead", at: location)
        }
        let value: SQLValue
        do {
            value = try slot.converter.convert(key)
        } catch {
            throw InputError("\(source.entity).\(relationship): key of \(description.destinationEntity): \(error)", at: location)
        }
        let subtree = layout.entity(named: constraint.declaringEntity.name)!.subtreeList
        let rows = try query("SELECT Z_PK, Z_ENT FROM \(destination.table) WHERE \(slot.column) = ? AND Z_ENT IN (\(subtree)) LIMIT 1", [value], at: location)
        guard let row = rows.first, let pk = row[0].integer, let number = row[1].integer.map(Int.init) else { return nil }
        let found = layout.entity(number: number)!
        guard destination.layout.subtreeNumbers.contains(number) else {
            throw InputError("\(source.entity).\(relationship): '\(key)' names a \(found.name), not a \(description.destinationEntity)", at: location)
        }
        return ObjectReference(entity: found.name, entityNumber: number, primaryKey: pk)
    }

    /// Sets a to-one column; setting it to another object than it already holds is a conflict.
    private func setToOne(_ object: ObjectReference, _ slot: EntityPlan.ToOneSlot, to target: ObjectReference,
                          order: Int?, at location: InputLocation) throws(InputError) {
        let table = layout.entity(named: object.entity)!.table
        let current = try query("SELECT \(slot.column) FROM \(table) WHERE Z_PK = ?", [.integer(object.primaryKey)], at: location).first?.first ?? .null
        if let existing = current.integer {
            guard existing == target.primaryKey else {
                throw InputError("\(object.entity).\(slot.relationship.name) of \(object) is given two different values: \(slot.relationship.destinationEntity) #\(existing) and \(target)", at: location)
            }
            return
        }
        var assignments = ["\(slot.column) = ?"]
        var arguments: [SQLValue] = [.integer(target.primaryKey)]
        if let column = slot.columns.entity {
            assignments.append("\(column) = ?")
            arguments.append(.integer(Int64(target.entityNumber)))
        }
        if let column = slot.columns.order {
            assignments.append("\(column) = ?")
            if let order {
                arguments.append(.integer(Int64(order)))
            } else {
                let next = try query(slot.columns.nextPositionSQL(in: table)!, [.integer(target.primaryKey)], at: location).first?.first ?? .integer(1)
                arguments.append(next)
            }
        }
        try run("UPDATE \(table) SET \(assignments.joined(separator: ", ")) WHERE Z_PK = ?", arguments + [.integer(object.primaryKey)], at: location)
    }

    /// One row of a many-to-many join table, with order columns where either side is ordered.
    private func addJoinRow(_ source: ObjectReference, _ relationship: RelationshipDescription, _ target: ObjectReference,
                            position: Int?, at location: InputLocation) throws(InputError) {
        let (join, sourceIsFirst) = layout.joinTableSide(for: relationship.name, of: source.entity)!
        let (first, second) = sourceIsFirst ? (source, target) : (target, source)
        var arguments: [SQLValue] = [.integer(first.primaryKey), .integer(second.primaryKey)]
        for ordering in join.orderings {
            if let position, ordering.ordersFirstSide != sourceIsFirst {
                arguments.append(.integer(Int64(position)))
            } else {
                let holder = ordering.ordersFirstSide ? second : first
                arguments.append(try query(join.nextPositionSQL(ordering), [.integer(holder.primaryKey)], at: location).first?.first ?? .integer(1))
            }
        }
        try run(join.insertSQL, arguments, at: location)
    }

    /// Resolves the references still open, applies defaults to keyed objects and checks
    /// required attributes and to-one relationships. Call once, after the last input.
    public func finish() throws(InputError) {
        for reference in pending {
            guard let target = try resolve(reference.source, reference.relationship, key: reference.key, at: reference.location) else {
                let destination = plans[reference.source.entity]!.relationships[reference.relationship]!.destinationEntity
                throw InputError("\(reference.source.entity).\(reference.relationship): no \(destination) has the key '\(reference.key)'", at: reference.location)
            }
            try link(reference.source, reference.relationship, to: target, at: reference.location)
        }
        pending.removeAll()
        let origin = InputLocation(file: model.source, line: 0, column: 0)
        for name in plans.keys.sorted() {
            let plan = plans[name]!
            guard !plan.entity.isAbstract else { continue }
            let number = plan.layout.number
            if plan.key != nil {
                for slot in plan.attributeSlots {
                    if let value = slot.defaultValue {
                        try run("UPDATE \(plan.table) SET \(slot.column) = ? WHERE Z_ENT = \(number) AND \(slot.column) IS NULL", [value], at: origin)
                    } else if !slot.attribute.isOptional {
                        try requireNoRow(plan, where: "\(slot.column) IS NULL", "the required attribute '\(slot.attribute.name)' is missing")
                    }
                }
            }
            for slot in plan.toOnes.values.sorted(by: { $0.column < $1.column }) where !slot.relationship.isOptional {
                try requireNoRow(plan, where: "\(slot.column) IS NULL", "the required relationship '\(slot.relationship.name)' is not set")
            }
        }
    }

    private func requireNoRow(_ plan: EntityPlan, where condition: String, _ message: String) throws(InputError) {
        let origin = InputLocation(file: model.source, line: 0, column: 0)
        let rows = try query("SELECT Z_PK FROM \(plan.table) WHERE Z_ENT = \(plan.layout.number) AND \(condition) ORDER BY Z_PK LIMIT 1", [], at: origin)
        guard let pk = rows.first?.first?.integer else { return }
        let location = definitions[plan.table]?[pk] ?? origin
        throw InputError("\(plan.entity.name) #\(pk): \(message)", at: location)
    }
}
