import SeedModel
import SeedStore

/// The references by natural key of one simple to-one (whose inverse, if any, is an unordered
/// to-many). A new row's go straight into the row when the destination's keys are kept whole
/// (`KeyTable`: the object's `Z_PK`, or the one reserved for its key); the others (those of
/// merged objects, and of to-ones that also store the destination's entity) are recorded with
/// the rows in the store's ledger and set all at once by `finish`. Either way a keyed,
/// relational import runs no query per row.
final class KeyReferenceLedger {
    let references: ObjectRows.KeyReferences
    let statement: Statement
    let entity: String
    let relationship: String
    let destination: String
    let destinationNumber: Int
    let key: NaturalKey
    let keySlots: [EntityPlan.AttributeSlot]
    /// Where the key's values are in `values`.
    let keyParameters: [Int]
    let destinationKeys: ObjectKeys
    /// The destination table's `Z_PK`s, for keys reserved at first sight.
    let destinationPrimaryKeys: PrimaryKeySequence
    /// One recorded row: file, line, column, the key as given, the key's values.
    let values: UnsafeMutableBufferPointer<SQLValue?>
    /// Whether a new row's references go straight into the row.
    var setsRows: Bool { destinationKeys.table != nil && references.columns.entity == nil }

    init(references: ObjectRows.KeyReferences, statement: Statement, entity: String, relationship: String,
         destination: EntityPlan, key: NaturalKey) {
        self.references = references
        self.statement = statement
        self.entity = entity
        self.relationship = relationship
        self.destination = destination.entity.name
        self.destinationNumber = destination.layout.number
        self.key = key
        self.keySlots = destination.keySlots
        self.keyParameters = Array(4..<4 + key.names.count)
        self.destinationKeys = destination.objectKeys!
        self.destinationPrimaryKeys = destination.primaryKeys
        values = .allocate(capacity: 4 + key.names.count)
        values.initialize(repeating: nil)
    }

    deinit {
        values.deinitialize()
        values.deallocate()
    }
}
