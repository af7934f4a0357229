import SeedModel
import SeedStore

/// Source-local identifiers: a name an input gives an object (`seedgen:id` in entity XML, `@id`
/// in a property list) so that any file of the build can refer to it, whatever the model's
/// constraints. One namespace per build; never stored. Identifiers compare as bytes
/// (`ByteString`): NFC and NFD spellings are two identifiers, as they are two keys.
extension SeedRepository {
    /// Whether `identifier` can be one: not empty, no white space (lists of them are separated by it).
    static func isValidIdentifier(_ identifier: String) -> Bool {
        !identifier.isEmpty && !identifier.contains(where: \.isWhitespace)
    }

    /// The object an identifier already names, when it names one; it must be of `plan`'s entity.
    func identifiedObject(_ identifier: String, _ plan: EntityPlan, at location: InputLocation) throws(InputError) -> ObjectReference? {
        guard Self.isValidIdentifier(identifier) else {
            throw InputError("'\(identifier)' is not an identifier: give one word without spaces", at: location)
        }
        guard let known = identifiers[ByteString(identifier)] else { return nil }
        guard known.object.entity == plan.entity.name else {
            throw InputError("identifier '\(identifier)' names a \(known.object.entity) (defined at \(known.location)), not a \(plan.entity.name)", at: location)
        }
        return known.object
    }

    /// Relates `source` to the object an identifier names: now when it is written, otherwise at
    /// `finish` (so a reference may come before its object, in any file).
    public func link(_ source: ObjectReference, _ relationship: String, toIdentifier identifier: String, at location: InputLocation) throws(InputError) {
        guard Self.isValidIdentifier(identifier) else {
            throw InputError("\(source.entity).\(relationship): '\(identifier)' is not an identifier", at: location)
        }
        if let known = identifiers[ByteString(identifier)] {
            try link(source, relationship, to: known.object, at: location)
        } else {
            pendingIdentifiers.append((source, relationship, identifier, reservedPlace(in: source, relationship), location))
        }
    }

    /// Links the references to identifiers still open; one that names no object is an error.
    func resolvePendingIdentifiers() throws(InputError) {
        for reference in pendingIdentifiers {
            guard let known = identifiers[ByteString(reference.identifier)] else {
                throw InputError("\(reference.source.entity).\(reference.relationship): no object has the identifier '\(reference.identifier)'", at: reference.location)
            }
            try link(reference.source, reference.relationship, to: known.object, position: reference.place, at: reference.location)
        }
        pendingIdentifiers.removeAll()
    }
}
