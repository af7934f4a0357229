/// The phases of a migration inside its write transaction, in the order they run
/// (`StoreMigrator`). Before them, outside the transaction, an interrupted write's journal is
/// rolled back and the plan is checked read-only; under the write lock the store's version,
/// plan, contents and record are checked again and the carriage decided (`Carriage`), all
/// before the first write. After them comes `COMMIT`.
package enum MigrationPhase: CaseIterable, Sendable {
    /// Each destination entity's rows and each relationship's links counted as the source
    /// holds them, and what the plan removes (`MigrationLedger`); a row of no entity of its
    /// table refused.
    case count
    /// The seed record's rows the user left as seeded, marked where the record is digested
    /// again (`RecordMigration.markUnchanged`); a packed record unpacked first where it is
    /// (`RecordMigration.keepsPacked`).
    case markRecord
    /// The source tables the destination does not keep renamed aside, with their indexes.
    case parkSourceTables
    /// The destination's tables made as a fresh store has them.
    case createTables
    /// The entity numbers of the tables kept as they are rewritten to the destination's.
    case renumberKeptTables
    /// Each destination entity's rows copied from its source entity's, as the carriage says.
    case copyRows
    /// Each many-to-many's links copied into the destination's join table.
    case copyJoinTables
    /// Positions given to the links of to-manys that became ordered.
    case numberNewlyOrdered
    /// To-ones and join-table links to objects that left with their entity cleared.
    case clearDanglingReferences
    /// The seed record digested again and renamed where the migration changed its rows.
    case migrateRecord
    /// The destination's indexes: taken over from a source index or made; the parked
    /// tables' indexes dropped.
    case makeIndexes
    /// The parked source tables and the source's record dropped.
    case dropSourceTables
    /// `Z_PRIMARYKEY` written for the destination's entities.
    case rewritePrimaryKeys
    /// The metadata written for the destination model; Core Data's model cache emptied.
    case rewriteMetadata
    /// The result counted and checked against the first count, the required values and the
    /// structural checks of `verify` (`MigrationLedger.requireConserved`): a difference rolls
    /// everything back.
    case checkConservation
}
