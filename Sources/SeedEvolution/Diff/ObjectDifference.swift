import SeedModel
import SeedStore

/// One object that differs between two stores.
package struct ObjectDifference: Sendable {
    /// Whether the new store adds, removes or changes the object.
    package enum Kind: String, Sendable {
        case added, removed, changed
    }

    /// A property whose value differs.
    package struct PropertyChange: Sendable {
        /// The property (a to-one's position in its inverse's ordered list is `name` + " position").
        package var name: String
        /// The value in the old store and in the new one.
        package var old: PropertyValue
        package var new: PropertyValue
    }

    /// A property's value in one store.
    package enum PropertyValue: Sendable {
        /// An attribute's stored value (text as its bytes, byte for byte).
        case attribute(SQLValue, AttributeType)
        /// A to-one's destination, nil for none.
        case object(NamedObject?)
        /// The 1-based position of the object in an ordered to-many, nil when it is in none.
        case position(Int64?)
        /// The destinations of a many-to-many that only this store links.
        case links([NamedObject])
    }

    package var kind: Kind
    /// The object.
    package var object: NamedObject
    /// For a changed object, what changed; for an added or removed one, every attribute that
    /// holds a value and every to-one that is set.
    package var properties: [PropertyChange]
}

