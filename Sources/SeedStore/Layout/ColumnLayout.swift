import SeedModel

/// One column of an entity table, beyond `Z_PK`, `Z_ENT` and `Z_OPT`.
package struct ColumnLayout: Sendable, Hashable {
    /// What the column stores.
    package enum Role: Sendable, Hashable {
        /// An attribute's value.
        case attribute(entity: String, attribute: String, type: AttributeType)
        /// A to-one relationship's destination `Z_PK`.
        case foreignKey(entity: String, relationship: String, destination: String)
        /// The destination's `Z_ENT` of a to-one whose destination has sub-entities (assumed layout).
        case foreignEntity(entity: String, relationship: String)
        /// The position of this object in the ordered to-many inverse of a to-one (`Z_FOK_`).
        case foreignOrder(entity: String, relationship: String)
        /// The `Z_PK` of the object whose to-many without an inverse holds this row, in the
        /// destination's table (`Z<n><NAME>`, `n` the owner's entity number): SwiftData's
        /// `Cocktail.spec` as `ZINGREDIENT.Z1SPEC` (a real store). `entity` is the row's own.
        case ownerKey(entity: String, owner: String, relationship: String)
    }

    /// The column's name, e.g. `ZTITLE`.
    package var name: String
    /// The declared SQL type: INTEGER, FLOAT, TIMESTAMP, DECIMAL, VARCHAR or BLOB.
    package var sqlType: String
    /// What the column stores. A Composite's element is an `.attribute` whose name is the
    /// path `composite.element` (`author.person`) and whose type is the element's.
    package var role: Role

    /// The entity whose property this column stores.
    package var entity: String {
        switch role {
        case .attribute(let entity, _, _), .foreignKey(let entity, _, _),
             .foreignEntity(let entity, _), .foreignOrder(let entity, _), .ownerKey(let entity, _, _):
            entity
        }
    }

    /// The entity whose objects' `Z_PK`s the column holds: a to-one's destination, or the owner
    /// of a to-many without an inverse; nil for any other column.
    package var referencedEntity: String? {
        switch role {
        case .foreignKey(_, _, let destination): destination
        case .ownerKey(_, let owner, _): owner
        case .attribute, .foreignEntity, .foreignOrder: nil
        }
    }

    /// Core Data orders a table's columns by class: INTEGER < REAL (FLOAT and TIMESTAMP
    /// interleaved) < DECIMAL < VARCHAR < the BLOBs, UUID < Transformable < Binary (real stores
    /// show UUID before Transformable and Transformable before Binary; UUID against Binary
    /// directly is *assumed*).
    var storageClass: Int {
        switch sqlType {
        case "INTEGER": return 0
        case "FLOAT", "TIMESTAMP": return 1
        case "DECIMAL": return 2
        case "VARCHAR": return 3
        default:
            guard case .attribute(_, _, let type) = role else { return 7 }
            switch type {
            case .uuid: return 4
            case .transformable: return 5
            case .binary: return 6
            default: return 7
            }
        }
    }

    /// True when every value of an attribute of `type` takes a bounded number of bytes in a row
    /// (a number, a date, a Boolean), false when its length is its own (text, data) or it has
    /// no column.
    package static func holdsFixedLength(_ type: AttributeType) -> Bool {
        ["INTEGER", "FLOAT", "TIMESTAMP", "DECIMAL"].contains(sqlType(for: type))
    }

    /// The SQL type Core Data declares for an attribute type, nil when it has no column.
    static func sqlType(for type: AttributeType) -> String? {
        switch type {
        case .integer16, .integer32, .integer64, .boolean: "INTEGER"
        case .double, .float: "FLOAT"
        case .date: "TIMESTAMP"
        case .decimal: "DECIMAL"
        case .string: "VARCHAR"
        case .uri: "VARCHAR"
        case .binary, .transformable, .uuid: "BLOB"
        case .objectID, .composite, .undefined: nil
        }
    }
}
