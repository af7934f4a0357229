import SeedModel
import SeedStore

/// The references by natural key of one simple to-one (whose inverse, if any, is an unordered
/// to-many). A new row's go straight into the row when the destination's keys are kept whole
/// (`NewRows.setInRow`: the object's `Z_PK`, or the one reserved for its key); the others (those
/// of merged objects, and of to-ones that also store the destination's entity) are recorded with
/// the rows in the store's ledger and set all at once by `KeyResolver.resolveReferences`. Either
/// way a keyed, relational import runs no query per row.
final class KeyReferenceLedger {
    /// Where a new row's references by key go.
    enum NewRows {
        /// Into the row, from the destination's whole keys.
        case setInRow(WholeKeys)
        /// Into the store's ledger, like a merged object's.
        case recorded
    }

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
    let newRows: NewRows
    /// One recorded row: file, line, column, the key as given, the key's values.
    let values: UnsafeMutableBufferPointer<SQLValue?>

    init(references: ObjectRows.KeyReferences, statement: Statement, entity: String, relationship: String,
         destination: EntityPlan, key: NaturalKey, keys: ObjectKeys) {
        self.references = references
        self.statement = statement
        self.entity = entity
        self.relationship = relationship
        self.destination = destination.entity.name
        self.destinationNumber = destination.layout.number
        self.key = key
        self.keySlots = destination.keySlots
        self.keyParameters = Array(4..<4 + key.names.count)
        self.destinationKeys = keys
        self.destinationPrimaryKeys = destination.primaryKeys
        if case .whole(let whole) = keys, references.columns.entity == nil {
            newRows = .setInRow(whole)
        } else {
            newRows = .recorded
        }
        values = .allocate(capacity: 4 + key.names.count)
        values.initialize(repeating: nil)
    }

    deinit {
        values.deinitialize()
        values.deallocate()
    }
}
