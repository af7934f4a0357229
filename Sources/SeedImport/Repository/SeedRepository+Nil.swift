import SeedModel

/// Attributes given nil against a model default (`seedgen:nil`, `@nil`): see `giveNil`.
extension SeedRepository {
    /// Says that an attribute of the object being built is nil (`seedgen:nil`, `@nil`): it is
    /// stored NULL even where the model gives a default, unless another mention of the object
    /// gives it a value. `dump` writes it for a NULL the model would fill with its default.
    /// Call after the object's values are set.
    func giveNil(_ name: String, of plan: EntityPlan, at location: InputLocation) throws(InputError) {
        guard case .attribute(let slot) = plan.property(named: name) else {
            throw InputError("nil names '\(name)', which is not an attribute of \(plan.entity.name)\(NameSuggestion.hint(for: name, in: plan.attributeSlots.map(\.attribute.name)))", at: location)
        }
        guard slot.attribute.isOptional else {
            throw InputError("\(plan.entity.name).\(name) is required and cannot be nil", at: location)
        }
        guard values[Int(slot.parameter)] == nil else {
            throw InputError("\(plan.entity.name).\(name) is given both a value and nil", at: location)
        }
        values[Int(slot.parameter)] = .null
        givenNil = true
    }
}
