import SeedModel
import SeedStore

/// Source-local identifiers: a name an input gives an object (`seedgen:id` in entity XML, `@id`
/// in a property list) so that any file of the build can refer to it, whatever the model's
/// constraints. One namespace per build. The seed record keeps an object's identifier as its
/// name when the object has no natural key (a later seed giving the same identifier updates
/// it), unless the identifier starts with `#`: such are local to the build (a dump names
/// objects without a name of their own so). Identifiers compare as bytes (they are kept in a
/// `KeyTable`, as text keys): NFC and NFD spellings are two identifiers, as they are two keys.
struct SourceIdentifiers {
    /// The identifiers given so far, each with its object's `Z_PK` and `Z_ENT` (where it was
    /// given is its row's definition).
    private var table = KeyTable()
    /// References by identifier to objects not given yet.
    var pending = PendingReferences()

    /// Whether `identifier` only links objects within its build (`#…`) and is never recorded.
    static func isLocal(_ identifier: String) -> Bool {
        identifier.utf8.first == UInt8(ascii: "#")
    }

    /// Whether `identifier` can be one: not empty, no white space (lists of them are separated by it).
    static func isValid(_ identifier: String) -> Bool {
        !identifier.isEmpty && !identifier.contains(where: \.isWhitespace)
    }

    /// Gives `identifier` to the object with `primaryKey` of the entity numbered `entityNumber`.
    mutating func add(_ identifier: String, primaryKey: Int64, entityNumber: Int) {
        table.add(Self.bytes(identifier), primaryKey: primaryKey, entityNumber: entityNumber)
    }

    /// The object `identifier` names in `layout`, when one was given it.
    func object(identifiedBy identifier: String, in layout: StoreLayout) -> ObjectReference? {
        guard let found = table.find(Self.bytes(identifier)) else { return nil }
        return ObjectReference(entity: layout.entity(number: found.entityNumber)!.name, entityNumber: found.entityNumber,
                               primaryKey: found.primaryKey)
    }

    /// How the table keeps `identifier`.
    private static func bytes(_ identifier: String) -> KeyBytes {
        var bytes = KeyBytes()
        bytes.set(CollectionOfOne(.text(identifier)))
        return bytes
    }
}
