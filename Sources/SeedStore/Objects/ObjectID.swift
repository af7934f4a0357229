/// The identity of one object in a store: its entity and `Z_PK`.
public struct ObjectID: Sendable, Hashable, CustomStringConvertible {
    /// The entity's name (the concrete one when read from the store).
    public var entity: String
    /// `Z_PK`.
    public var primaryKey: Int64

    /// Creates an object identity.
    public init(entity: String, primaryKey: Int64) {
        self.entity = entity
        self.primaryKey = primaryKey
    }

    /// `Team #3`.
    public var description: String { "\(entity) #\(primaryKey)" }
}
