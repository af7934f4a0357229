import SeedModel
import SeedStore

/// Relationships between written objects: by reference or by key, on both sides as Core Data
/// writes them (the to-one columns, their order columns, the join tables).
extension SeedRepository {
    /// Relates `source` to `target` through `relationship` of the source's entity, and sets
    /// the inverse side too. `position` is the target's 1-based place in an ordered to-many
    /// (nil: after the ones placed so far in this build, from any element or file).
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
            // A member naming its owner: placed last in the owner's list when that is ordered.
            let ordered = inverse.map { $0.isToMany && $0.isOrdered } ?? false
            try setToOne(source, plan.toOnes[relationship]!, to: target, place: ordered ? { self.nextPlace(in: target, inverse!.name) } : nil, at: location)
            if let inverse, !inverse.isToMany {
                try setToOne(target, targetPlan.toOnes[inverse.name]!, to: source, place: nil, at: location)
            }
        } else if let inverse, !inverse.isToMany {
            try setToOne(target, targetPlan.toOnes[inverse.name]!, to: source,
                         place: description.isOrdered ? { self.nextPlace(in: source, relationship, given: position) } : nil, at: location)
        } else if inverse == nil {
            try setOwner(of: target, to: source, through: description, at: location)
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
            pendingKeys.append(.init(source: source, relationship: relationship, text: key, place: reservedPlace(in: source, relationship), location: location))
        }
    }

    /// The object a key names, or nil when it is not (yet) written.
    func resolve(_ source: ObjectReference, _ relationship: String, key: String, at location: InputLocation) throws(InputError) -> ObjectReference? {
        let plan = try plan(for: source.entity, at: location)
        guard let description = plan.relationships[relationship] else {
            throw InputError("entity '\(source.entity)' has no relationship '\(relationship)'", at: location)
        }
        let destination = try self.plan(for: description.destinationEntity, at: location)
        guard let constraint = destination.key else {
            throw InputError("\(source.entity).\(relationship) names its \(description.destinationEntity) by key '\(key)', but \(description.destinationEntity) has no natural key: give it one for this build (--key \(description.destinationEntity)=attribute), give the object a seedgen:id, or nest it", at: location)
        }
        guard let texts = constraint.values(of: key) else {
            throw InputError("\(source.entity).\(relationship): '\(key)' is not a key of \(description.destinationEntity), which is \(constraint.syntax) (values separated by '|', '\\|' for a '|' in a value)", at: location)
        }
        var given: [SQLValue] = []
        for (slot, text) in zip(destination.keySlots, texts) {
            do {
                given.append(try slot.converter.convert(text))
            } catch {
                throw InputError("\(source.entity).\(relationship): key of \(description.destinationEntity): \(slot.attribute.name): \(error)", at: location)
            }
        }
        var key = KeyBytes()
        key.set(given)
        guard let row = try keys.writtenObject(key, of: destination, at: location) else { return nil }
        let (pk, number) = (row.primaryKey, row.entityNumber)
        let found = layout.entity(number: number)!
        guard destination.layout.subtreeNumbers.contains(number) else {
            throw InputError("\(source.entity).\(relationship): '\(key)' names a \(found.name), not a \(description.destinationEntity)", at: location)
        }
        return ObjectReference(entity: found.name, entityNumber: number, primaryKey: pk)
    }

    /// Sets a to-one column, and its position in the target's ordered list when `place` gives
    /// one (asked only for a new link); another object than it already holds is a conflict.
    private func setToOne(_ object: ObjectReference, _ slot: EntityPlan.ToOneSlot, to target: ObjectReference,
                          place: (() -> Int64)?, at location: InputLocation) throws(InputError) {
        try setKey(of: object, slot.columns, to: target, place: place, at: location) { existing in
            InputError("\(object.entity).\(slot.relationship.name) of \(object) is given two different values: \(describeDestination(existing, of: slot)) and \(target)", at: location)
        }
    }

    /// Puts `owner` into the member's column of a to-many without an inverse (`Z<n><NAME>`):
    /// a member has one owner through it, so another owner than it holds is a conflict.
    private func setOwner(of member: ObjectReference, to owner: ObjectReference, through relationship: RelationshipDescription,
                          at location: InputLocation) throws(InputError) {
        try setKey(of: member, layout.memberColumns(for: relationship.name, of: owner.entity)!, to: owner, place: nil, at: location) { existing in
            InputError("\(member) is in \(owner.entity).\(relationship.name) of two objects, \(owner.entity) #\(existing) and \(owner): the relationship has no inverse, and its store holds one owner per object", at: location)
        }
    }

    /// Sets `object`'s column that holds `target`'s `Z_PK` (with its companions), unless it
    /// holds it already; another `Z_PK` there is the `conflict`.
    private func setKey(of object: ObjectReference, _ columns: ToOneColumns, to target: ObjectReference, place: (() -> Int64)?,
                        at location: InputLocation, conflict: (Int64) -> InputError) throws(InputError) {
        let table = layout.entity(named: object.entity)!.table
        if let existing = try builder.rows(at: location, { rows throws(SQLiteError) in try rows.destination(of: object.primaryKey, in: table, columns) }) {
            guard existing == target.primaryKey else { throw conflict(existing) }
            return
        }
        let destination = ObjectRows.Row(primaryKey: target.primaryKey, entityNumber: target.entityNumber)
        let position = place?()
        try builder.rows(at: location) { rows throws(SQLiteError) in
            try rows.setToOne(of: object.primaryKey, in: table, columns, to: destination, place: position)
        }
    }

    /// `Group #2`, or `the key 'B'` when that `Z_PK` is reserved for a key not written yet.
    func describeDestination(_ primaryKey: Int64, of slot: EntityPlan.ToOneSlot) -> String {
        let destination = slot.relationship.destinationEntity
        if let plan = plans[destination], let text = keys.reservedKeyText(holding: primaryKey, of: plan) { return text }
        return "\(destination) #\(primaryKey)"
    }

    /// One row of a many-to-many join table, with order columns where either side is ordered.
    private func addJoinRow(_ source: ObjectReference, _ relationship: RelationshipDescription, _ target: ObjectReference,
                            position: Int?, at location: InputLocation) throws(InputError) {
        let (join, sourceIsFirst) = layout.joinTableSide(for: relationship.name, of: source.entity)!
        let (first, second) = sourceIsFirst ? (source, target) : (target, source)
        // Each ordered side places the other object last in its list (a given position, in the source's).
        let inverse = model.inverse(of: relationship)!.name
        let places = join.orderings.map { ordering -> Int64? in
            let holderIsSource = (ordering.holderColumn == join.firstColumn) == sourceIsFirst
            return holderIsSource ? nextPlace(in: source, relationship.name, given: position) : nextPlace(in: target, inverse)
        }
        try builder.rows(at: location) { rows throws(SQLiteError) in
            try rows.addJoinRow(join, first: first.primaryKey, second: second.primaryKey, places: places)
        }
    }
}
