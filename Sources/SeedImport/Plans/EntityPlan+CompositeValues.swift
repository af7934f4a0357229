import SeedModel
import SeedStore

/// A SwiftData struct that may be nil as a whole, with members that may not: a value of it
/// gives every such member, or it is no value at all (every element NULL). SwiftData reads a
/// row whose struct has one element set and a required one NULL as a value it cannot decode.
extension EntityPlan {
    /// One optional struct property with members its values must give.
    struct CompositeRequirement {
        /// The property's name (`address`).
        let property: String
        /// Every element's slot (`address.street`, `address.number`, …).
        let members: [AttributeSlot]
        /// The slots of the members a value must give (`address.street`).
        let required: [AttributeSlot]
    }

    /// The optional struct properties of `entity` (inherited ones included) with members their
    /// values must give (`AttributeDescription.namesRequiredInValue`).
    static func compositeRequirements(of entity: EntityDescription, in model: DataModel,
                                      slots: [String: AttributeSlot]) -> [CompositeRequirement] {
        model.allAttributes(of: entity).compactMap { composite in
            let required = composite.namesRequiredInValue
            guard !composite.isTransient, !required.isEmpty else { return nil }
            let members = composite.storedAttributes.compactMap { slots[$0.name] }
            return CompositeRequirement(property: composite.name, members: members, required: required.compactMap { slots[$0] })
        }
    }

    /// The message for the object being built (`values`) when one of its struct values lacks a
    /// member it must give: nil when every struct is given whole or not at all.
    func incompleteComposite() -> String? {
        for requirement in compositeRequirements {
            guard let given = requirement.members.first(where: { Self.holdsValue(values[Int($0.parameter)]) }),
                  let missing = requirement.required.first(where: { !Self.holdsValue(values[Int($0.parameter)]) }) else { continue }
            return Self.incompleteMessage(entity.name, requirement, given: given, missing: missing)
        }
        return nil
    }

    /// `Visit.address gives number but not street, which every address must give (it is not
    /// optional in its struct): give it, or no member of address for nil`.
    static func incompleteMessage(_ entity: String, _ requirement: CompositeRequirement, given: AttributeSlot, missing: AttributeSlot) -> String {
        let prefix = requirement.property + "."
        let givenName = given.attribute.name.dropFirst(prefix.count)
        let missingName = missing.attribute.name.dropFirst(prefix.count)
        return "\(entity).\(requirement.property) gives \(givenName) but not \(missingName), which every \(requirement.property) must give "
            + "(it is not optional in its struct): give it, or no member of \(requirement.property) for nil"
    }

    private static func holdsValue(_ value: SQLValue?) -> Bool {
        guard let value else { return false }
        return value != .null
    }
}
