import SeedModel
import SeedStore

/// Source-local identifiers: a name an input gives an object (`seedgen:id` in entity XML, `@id`
/// in a property list) so that any file of the build can refer to it, whatever the model's
/// constraints. One namespace per build. The seed record keeps an object's identifier as its
/// name when the object has no natural key (a later seed giving the same identifier updates
/// it), unless the identifier starts with `#`: such are local to the build (a dump names
/// objects without a name of their own so). Identifiers compare as bytes (they are
/// kept in a `KeyTable`, as text keys): NFC and NFD spellings are two identifiers, as they are
/// two keys.
extension SeedRepository {
    /// Whether `identifier` only links objects within its build (`#…`) and is never recorded.
    static func isLocalIdentifier(_ identifier: String) -> Bool {
        identifier.utf8.first == UInt8(ascii: "#")
    }

    /// How the identifier table keeps `identifier`.
    static func identifierBytes(_ identifier: String) -> KeyBytes {
        var bytes = KeyBytes()
        bytes.set(CollectionOfOne(.text(identifier)))
        return bytes
    }

    /// The object an identifier names, when one was given it.
    private func object(identifiedBy identifier: String) -> ObjectReference? {
        guard let found = identifiers.find(Self.identifierBytes(identifier)) else { return nil }
        return ObjectReference(entity: layout.entity(number: found.entityNumber)!.name, entityNumber: found.entityNumber,
                               primaryKey: found.primaryKey)
    }

    /// Whether `identifier` can be one: not empty, no white space (lists of them are separated by it).
    static func isValidIdentifier(_ identifier: String) -> Bool {
        !identifier.isEmpty && !identifier.contains(where: \.isWhitespace)
    }

    /// The object an identifier already names, when it names one; it must be of `plan`'s entity.
    func identifiedObject(_ identifier: String, _ plan: EntityPlan, at location: InputLocation) throws(InputError) -> ObjectReference? {
        guard Self.isValidIdentifier(identifier) else {
            throw InputError("'\(identifier)' is not an identifier: give one word without spaces", at: location)
        }
        guard let known = object(identifiedBy: identifier) else { return nil }
        guard known.entity == plan.entity.name else {
            let place = definition(of: known.primaryKey, in: layout.entity(number: known.entityNumber)!.table).map { " (defined at \($0))" } ?? ""
            throw InputError("identifier '\(identifier)' names a \(known.entity)\(place), not a \(plan.entity.name)", at: location)
        }
        return known
    }

    /// Relates `source` to the object an identifier names: now when it is written, otherwise at
    /// `finish` (so a reference may come before its object, in any file).
    public func link(_ source: ObjectReference, _ relationship: String, toIdentifier identifier: String, at location: InputLocation) throws(InputError) {
        guard Self.isValidIdentifier(identifier) else {
            throw InputError("\(source.entity).\(relationship): '\(identifier)' is not an identifier", at: location)
        }
        if let known = object(identifiedBy: identifier) {
            try link(source, relationship, to: known, at: location)
        } else {
            pendingIdentifiers.append(.init(source: source, relationship: relationship, text: identifier,
                                            place: reservedPlace(in: source, relationship), location: location))
        }
    }

    /// Links the references to identifiers still open; one that names no object is an error.
    func resolvePendingIdentifiers() throws(InputError) {
        try pendingIdentifiers.forEach { (reference) throws(InputError) in
            guard let known = object(identifiedBy: reference.text) else {
                throw InputError("\(reference.source.entity).\(reference.relationship): no object has the identifier '\(reference.text)'", at: reference.location)
            }
            try link(reference.source, reference.relationship, to: known, position: reference.place, at: reference.location)
        }
        pendingIdentifiers.removeAll()
    }
}
