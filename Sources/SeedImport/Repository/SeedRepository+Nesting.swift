import SeedModel
import SeedStore

/// Objects nested in an owner's to-many: the owner goes into a new object's row where the
/// relationship allows, else the two are linked once the object is written.
extension SeedRepository {
    /// Says that the next object committed is nested in `owner`'s `relationship`; call
    /// `linkNested` once it is written. A new object whose row holds the inverse to-one alone
    /// (no position, no destination entity) takes its owner in the row itself: no query, no update.
    func nest(in owner: ObjectReference, _ relationship: String) {
        nestedIn = (owner, relationship)
    }

    /// Relates `owner` to its nested `child` (see `nest(in:_:)`), unless the child's row took it.
    func linkNested(_ child: ObjectReference, in owner: ObjectReference, _ relationship: String, at location: InputLocation) throws(InputError) {
        if ownerLinked {
            ownerLinked = false
            return
        }
        try link(owner, relationship, to: child, at: location)
    }

    /// Puts the owner of a new nested object into its row, when the relationship allows:
    /// a to-many whose inverse is a plain to-one of the object. False when `link` must do it.
    func setOwner(_ nesting: (owner: ObjectReference, relationship: String), of object: ObjectReference, _ plan: EntityPlan,
                  at location: InputLocation) throws(InputError) -> Bool {
        guard let slot = ownerSlot(nesting.owner.entity, nesting.relationship, plan) else { return false }
        let parameter = Int(slot.parameter)
        if case .integer(let existing)? = values[parameter], existing != nesting.owner.primaryKey {
            throw InputError("\(object.entity).\(slot.relationship.name) of \(object) is given two different values: \(describeDestination(existing, of: slot)) and \(nesting.owner)", at: location)
        }
        values[parameter] = .integer(nesting.owner.primaryKey)
        return true
    }

    /// The to-one of `plan`'s entity that holds its owner's `relationship` in the row alone (the
    /// inverse of a to-many, without position or destination entity), if there is one; the last
    /// answer is kept, as nested objects come in runs.
    private func ownerSlot(_ ownerEntity: String, _ relationship: String, _ plan: EntityPlan) -> EntityPlan.ToOneSlot? {
        if let last = lastOwnerSlot, last.entity == ownerEntity, last.relationship == relationship, last.plan === plan { return last.slot }
        var slot: EntityPlan.ToOneSlot?
        if let description = plans[ownerEntity]?.relationships[relationship], description.isToMany,
           let inverse = model.inverse(of: description), !inverse.isToMany,
           let destination = model.entity(named: description.destinationEntity), model.entity(plan.entity, isKindOf: destination),
           let candidate = plan.toOnes[inverse.name], candidate.columns.entity == nil, candidate.columns.order == nil {
            slot = candidate
        }
        lastOwnerSlot = (ownerEntity, relationship, plan, slot)
        return slot
    }
}
