import SeedModel
import SeedStore

/// What the natural key of the object being built finds among the objects written so far.
enum KeyMatch {
    /// The entity has no key, or the object does not give all of its values.
    case none
    /// An object written before with the same key: the new one merges into it.
    case existing(primaryKey: Int64)
    /// A key no object has had (its bytes are in `KeyResolver.objectKey`).
    case new
    /// A key that references named before its object: the object takes the reserved `Z_PK`.
    case reserved(KeyTable.Found, KeyTable.Reservation)
}
