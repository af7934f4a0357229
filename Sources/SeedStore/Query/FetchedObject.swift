import SeedModel

/// One fetched object: its entity, `Z_PK`, attribute values and to-one destinations.
///
/// Values are read by name, typed (nil when the value is NULL or of another kind), or as the
/// stored `SQLValue`; a to-one reads as its destination's key. `objectID` names the object to an
/// `ObjectWriter`:
///
/// ```swift
/// let germany = try container.viewContext.fetch("Team", where: "name == 'Deutschland'")[0]
/// let name = germany.string("name")                  // "Deutschland"
/// let group = germany["group"]                       // .text("B"): the group's key
/// let match = try container.viewContext.fetch("Match", sortedBy: [.init("date")], limit: 1)[0]
/// let kickOff = match.date("date")                   // a Date
/// let goals = match.integer("scoreHome")             // nil where the seed gives none
/// try container.writeAndWait { writer in try writer.update(germany.objectID, ["name": .text("Germany")]) }
/// ```
public struct FetchedObject: Sendable, Hashable {
    /// The object's (concrete) entity.
    public var entity: String
    /// Its `Z_PK`.
    public var primaryKey: Int64
    /// Attribute values in model order (Dates as seconds since 2001, Booleans as 0/1).
    public var attributes: [(name: String, value: SQLValue)]
    /// To-one relationships in model order: the destination's natural key (its single-attribute
    /// uniqueness constraint), else `Entity #pk`; NULL when not set.
    public var toOnes: [(name: String, destination: SQLValue)]

    public static func == (lhs: FetchedObject, rhs: FetchedObject) -> Bool {
        lhs.entity == rhs.entity && lhs.primaryKey == rhs.primaryKey
            && lhs.attributes.elementsEqual(rhs.attributes) { $0 == $1 }
            && lhs.toOnes.elementsEqual(rhs.toOnes) { $0 == $1 }
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(entity)
        hasher.combine(primaryKey)
    }

    /// The value of an attribute or to-one by name.
    public subscript(name: String) -> SQLValue? {
        attributes.first { $0.name == name }?.value ?? toOnes.first { $0.name == name }?.destination
    }
}

extension FetchedObject {
    /// The object's identity.
    public var objectID: ObjectID { ObjectID(entity: entity, primaryKey: primaryKey) }
}
