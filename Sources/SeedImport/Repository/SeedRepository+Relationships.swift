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
            try setToOne(source, plan.toOnes[relationship]!, to: target, place: ordered ? { self.links.nextPlace(in: target, inverse!.name) } : nil, at: location)
            if let inverse, !inverse.isToMany {
                try setToOne(target, targetPlan.toOnes[inverse.name]!, to: source, place: nil, at: location)
            }
        } else if let inverse, !inverse.isToMany {
            try setToOne(target, targetPlan.toOnes[inverse.name]!, to: source,
                         place: description.isOrdered ? { self.links.nextPlace(in: source, relationship, given: position) } : nil, at: location)
        } else if inverse == nil {
            try links.setOwner(of: target, to: source, through: description, at: location)
        } else {
            try links.addJoinRow(source, description, target, inverse: inverse!.name, position: position, at: location)
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
            if destination.isKeyedWithinOwner, let ownedKey = model.naturalKey(of: destination.entity, buildKeys: options.keys) {
                throw InputError("\(source.entity).\(relationship) names its \(description.destinationEntity) by key '\(key)', but \(description.destinationEntity)'s key (\(ownedKey.names.joined(separator: ", "))) names its objects within their owner, which a reference by key cannot give: give the object a seedgen:id, or nest it", at: location)
            }
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
        try links.setKey(of: object, slot.columns, to: target, place: place, at: location) { existing in
            InputError("\(object.entity).\(slot.relationship.name) of \(object) is given two different values: \(describeDestination(existing, of: slot)) and \(target)", at: location)
        }
    }

    /// `Group #2`, or `the key 'B'` when that `Z_PK` is reserved for a key not written yet.
    func describeDestination(_ primaryKey: Int64, of slot: EntityPlan.ToOneSlot) -> String {
        let destination = slot.relationship.destinationEntity
        if let plan = plans[destination], let text = keys.reservedKeyText(holding: primaryKey, of: plan) { return text }
        return "\(destination) #\(primaryKey)"
    }

    /// The place a deferred reference from `source` reserves now, so that it keeps its order
    /// among the others of `source`'s ordered to-many (nil when `relationship` is not one).
    func reservedPlace(in source: ObjectReference, _ relationship: String) -> Int? {
        guard let description = plans[source.entity]?.relationships[relationship], description.isToMany, description.isOrdered else { return nil }
        return Int(links.nextPlace(in: source, relationship))
    }
}
