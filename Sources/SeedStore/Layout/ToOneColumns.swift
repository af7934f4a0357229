import SeedModel

/// The columns of one to-one relationship in its entity's table.
package struct ToOneColumns: Sendable, Hashable {
    /// The destination's `Z_PK`.
    package var key: String
    /// `Z<d>_<NAME>`: the destination's entity number, when the destination has sub-entities (assumed layout).
    package var entity: String?
    /// `Z_FOK_<NAME>`: the object's position in the inverse's ordered to-many.
    package var order: String?
}
