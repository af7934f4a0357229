/// One object written by the repository: its entity and primary key.
public struct ObjectReference: Sendable, Hashable, CustomStringConvertible {
    /// The entity's name.
    public let entity: String
    /// The entity's `Z_ENT`.
    public let entityNumber: Int
    /// The row's `Z_PK`.
    public let primaryKey: Int64

    /// `Team #3`.
    public var description: String { "\(entity) #\(primaryKey)" }
}
