import SeedModel

/// One column of an entity table, beyond `Z_PK`, `Z_ENT` and `Z_OPT`.
public struct ColumnLayout: Sendable, Hashable {
    /// What the column stores.
    public enum Role: Sendable, Hashable {
        /// An attribute's value.
        case attribute(entity: String, attribute: String, type: AttributeType)
        /// A to-one relationship's destination `Z_PK`.
        case foreignKey(entity: String, relationship: String, destination: String)
        /// The destination's `Z_ENT` of a to-one whose destination has sub-entities (assumed layout).
        case foreignEntity(entity: String, relationship: String)
        /// The position of this object in the ordered to-many inverse of a to-one (`Z_FOK_`).
        case foreignOrder(entity: String, relationship: String)
    }

    /// The column's name, e.g. `ZTITLE`.
    public var name: String
    /// The declared SQL type: INTEGER, FLOAT, TIMESTAMP, DECIMAL, VARCHAR or BLOB.
    public var sqlType: String
    /// What the column stores.
    public var role: Role

    /// The entity whose property this column stores.
    public var entity: String {
        switch role {
        case .attribute(let entity, _, _), .foreignKey(let entity, _, _),
             .foreignEntity(let entity, _), .foreignOrder(let entity, _):
            entity
        }
    }

    /// Core Data orders a table's columns by storage class: INTEGER < REAL < VARCHAR < BLOB.
    var storageClass: Int {
        switch sqlType {
        case "INTEGER": 0
        case "FLOAT", "TIMESTAMP", "DECIMAL": 1
        case "VARCHAR": 2
        default: 3
        }
    }

    /// The SQL type Core Data declares for an attribute type, nil when it has no column.
    static func sqlType(for type: AttributeType) -> String? {
        switch type {
        case .integer16, .integer32, .integer64, .boolean: "INTEGER"
        case .double, .float: "FLOAT"
        case .date: "TIMESTAMP"
        case .decimal: "DECIMAL"  // assumed: no real store has shown it yet
        case .string: "VARCHAR"
        case .uri: "VARCHAR"  // assumed
        case .binary, .transformable, .uuid: "BLOB"
        case .objectID, .composite, .undefined: nil
        }
    }
}

/// One root entity's table, holding the rows of every entity below it.
public struct TableLayout: Sendable, Hashable {
    /// `Z` + the upper-cased root entity name.
    public var name: String
    /// The root entity.
    public var rootEntity: String
    /// The property columns in Core Data's order.
    public var columns: [ColumnLayout]

    /// `CREATE TABLE ZBOOK ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZTITLE VARCHAR )`.
    public var createSQL: String {
        let definitions = ["Z_PK INTEGER PRIMARY KEY", "Z_ENT INTEGER", "Z_OPT INTEGER"]
            + columns.map { "\($0.name) \($0.sqlType)" }
        return "CREATE TABLE \(name) ( \(definitions.joined(separator: ", ")) )"
    }
}

/// The join table of a many-to-many relationship pair.
public struct JoinTableLayout: Sendable, Hashable {
    /// `Z_<e><R>`, e.g. `Z_1BOOKS`.
    public var name: String
    /// The relationship the table is named after, and its declaring entity.
    public var entity: String
    public var relationship: String
    /// The inverse relationship and its declaring entity.
    public var inverseEntity: String
    public var inverseRelationship: String
    /// Holds the `Z_PK` of `entity`'s objects, e.g. `Z_1AUTHORS`.
    public var firstColumn: String
    /// Holds the `Z_PK` of the destination's objects, e.g. `Z_2BOOKS`.
    public var secondColumn: String
    /// Order columns: `Z_FOK_<first>` when the inverse is ordered, `Z_FOK_<second>` when `relationship` is.
    public var orderColumns: [String]

    /// `CREATE TABLE Z_1BOOKS ( Z_1AUTHORS INTEGER, Z_2BOOKS INTEGER, PRIMARY KEY (Z_1AUTHORS, Z_2BOOKS) )`.
    public var createSQL: String {
        let columns = ([firstColumn, secondColumn] + orderColumns).map { "\($0) INTEGER" }
        return "CREATE TABLE \(name) ( \(columns.joined(separator: ", ")), PRIMARY KEY (\(firstColumn), \(secondColumn)) )"
    }
}

/// One index Core Data creates, with its exact `sqlite_master` text.
public struct IndexLayout: Sendable, Hashable {
    /// The index name.
    public var name: String
    /// The table it indexes.
    public var table: String
    /// The `CREATE INDEX` statement.
    public var createSQL: String
}

/// Where one entity lives in the store.
public struct EntityLayout: Sendable, Hashable {
    /// The entity's name.
    public var name: String
    /// Its `Z_ENT` number.
    public var number: Int
    /// The parent's number, 0 for a root (`Z_SUPER`).
    public var superNumber: Int
    /// The table of its root entity.
    public var table: String
    /// True for an abstract entity.
    public var isAbstract: Bool
    /// Its own number and those of every entity below it.
    public var subtreeNumbers: [Int]
    /// Its renaming identifier, which an old `Z_NAME` may still hold.
    public var renamingIdentifier: String?

    /// `subtreeNumbers` as an SQL list, for `Z_ENT IN (…)`.
    public var subtreeList: String {
        subtreeNumbers.map(String.init).joined(separator: ", ")
    }
}
