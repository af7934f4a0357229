/// A change the model does not allow (unknown property, wrong type, deny rule, missing value);
/// the transaction it was made in writes nothing.
public struct WriteError: Error, Sendable, CustomStringConvertible {
    /// What kind of change was refused.
    public enum Reason: Sendable, Hashable {
        /// The model has no such entity.
        case unknownEntity(String)
        /// The entity has no such property.
        case unknownProperty(entity: String, property: String)
        /// The property is of another kind than the call needs (an attribute, a to-one, a to-many).
        case wrongKindOfProperty(entity: String, property: String)
        /// An abstract entity cannot have objects of its own.
        case abstractEntity(String)
        /// The store holds no such object.
        case noSuchObject(ObjectID)
        /// The value does not fit the attribute's type or range.
        case invalidValue(entity: String, attribute: String)
        /// The object does not belong to the relationship's destination entity.
        case wrongDestination(entity: String, relationship: String)
        /// A relationship with the delete rule Deny still leads somewhere.
        case deleteDenied(ObjectID, relationship: String)
        /// A required attribute or to-one has no value when the transaction ends.
        case missingValue(ObjectID, property: String)
        /// A to-many holds fewer or more objects than the model's `minCount`/`maxCount` allow.
        case countOutOfRange(ObjectID, relationship: String, count: Int)
        /// The object is in another object's to-many without an inverse already: the store holds
        /// one owner per object for such a relationship (`Z<n><NAME>` in the object's row).
        case ownedElsewhere(ObjectID, relationship: String)
    }

    /// What kind of change was refused.
    public var reason: Reason
    /// What is wrong, naming the entity and property.
    public var description: String

    init(_ reason: Reason, _ description: String) {
        self.reason = reason
        self.description = description
    }
}
