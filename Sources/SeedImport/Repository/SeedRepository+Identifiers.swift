import SeedModel
import SeedStore

/// Objects named by source-local identifiers (`SourceIdentifiers`): found when written, linked
/// now or at `finish`.
extension SeedRepository {
    /// The object an identifier already names, when it names one; it must be of `plan`'s entity.
    func identifiedObject(_ identifier: String, _ plan: EntityPlan, at location: InputLocation) throws(InputError) -> ObjectReference? {
        guard SourceIdentifiers.isValid(identifier) else {
            throw InputError("'\(identifier)' is not an identifier: give one word without spaces", at: location)
        }
        guard let known = identifiers.object(identifiedBy: identifier, in: layout) else { return nil }
        guard known.entity == plan.entity.name else {
            let place = definition(of: known.primaryKey, in: layout.entity(number: known.entityNumber)!.table).map { " (defined at \($0))" } ?? ""
            throw InputError("identifier '\(identifier)' names a \(known.entity)\(place), not a \(plan.entity.name)", at: location)
        }
        return known
    }

    /// Relates `source` to the object an identifier names: now when it is written, otherwise at
    /// `finish` (so a reference may come before its object, in any file).
    public func link(_ source: ObjectReference, _ relationship: String, toIdentifier identifier: String, at location: InputLocation) throws(InputError) {
        guard SourceIdentifiers.isValid(identifier) else {
            throw InputError("\(source.entity).\(relationship): '\(identifier)' is not an identifier", at: location)
        }
        if let known = identifiers.object(identifiedBy: identifier, in: layout) {
            try link(source, relationship, to: known, at: location)
        } else {
            identifiers.pending.append(.init(source: source, relationship: relationship, text: identifier,
                                             place: reservedPlace(in: source, relationship), location: location))
        }
    }

    /// Links the references to identifiers still open; one that names no object is an error.
    func resolvePendingIdentifiers() throws(InputError) {
        try identifiers.pending.forEach { (reference) throws(InputError) in
            guard let known = identifiers.object(identifiedBy: reference.text, in: layout) else {
                throw InputError("\(reference.source.entity).\(reference.relationship): no object has the identifier '\(reference.text)'", at: reference.location)
            }
            try link(reference.source, reference.relationship, to: known, position: reference.place, at: reference.location)
        }
        identifiers.pending.removeAll()
    }
}
