import SeedModel

/// An object as a diff names it: its entity and the values that name it.
package struct DiffObject: Sendable, Hashable {
    /// One value that names the object.
    package struct Value: Sendable, Hashable {
        /// The attribute.
        package var attribute: AttributeDescription
        /// Its stored value.
        package var value: SQLValue
    }

    /// The concrete entity.
    package var entity: String
    /// True when `values` are the natural key's; false when the object has no key (or does
    /// not give all of its values) and is named by every attribute it holds.
    package var isKeyed: Bool
    /// The values that name it, in the key's order (else every attribute by name).
    package var values: [Value]
    /// 1, or n for the n-th object (in `Z_PK` order) with the same values.
    package var ordinal: Int
}

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
        case object(DiffObject?)
        /// The 1-based position of the object in an ordered to-many, nil when it is in none.
        case position(Int64?)
        /// The destinations of a many-to-many that only this store links.
        case links([DiffObject])
    }

    package var kind: Kind
    /// The object.
    package var object: DiffObject
    /// For a changed object, what changed; for an added or removed one, every attribute that
    /// holds a value and every to-one that is set.
    package var properties: [PropertyChange]
}

extension SQLValue {
    /// True when both are the same value byte for byte: the same storage class, doubles by
    /// their bit pattern (-0 is not 0), text by its UTF-8 bytes (NFC and NFD differ).
    package func isIdentical(to other: SQLValue) -> Bool {
        switch (self, other) {
        case (.null, .null): true
        case (.integer(let a), .integer(let b)): a == b
        case (.real(let a), .real(let b)): a.bitPattern == b.bitPattern
        case (.text(let a), .text(let b)): a.utf8.elementsEqual(b.utf8)
        case (.blob(let a), .blob(let b)): a == b
        default: false
        }
    }
}
