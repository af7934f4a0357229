/// The phases of a seed update inside its write transaction, in the order they run
/// (`SeedUpdater`). Before them the store's and the seed's metadata are checked (the same
/// model version, a record in the store; a store of an older version migrated first, in its own
/// transaction), and a store that holds the seed already is left as it is. After them comes
/// `COMMIT`.
package enum UpdatePhase: CaseIterable, Sendable {
    /// The record's rows put under the store's entity numbers (`RecordNumbers.settle`).
    case settleRecordNumbers
    /// The new seed's record made from its rows (`UpdateClassification.recordSeed`: a seed does not carry
    /// one), as an installed copy of it would hold it.
    case recordSeed
    /// The digest rules a migration left settled (`SeedRecord.settleDigests`).
    case settleDigests
    /// The recorded objects known only by their key's check (a packed record's, unpacked)
    /// given the new seed's key of that check (`SeedRecord.resolveKeysKnownByCheck`).
    case resolveRecordedKeys
    /// Each recorded object's state found (as seeded, changed by the user, deleted), and each
    /// object of the new seed given its fate (`SeedUpdater.Fate`) and its `Z_PK` here.
    case classify
    /// The new seed's changes to objects left as seeded found.
    case markChanges
    /// Each entity's rows counted, the digests of the objects the user changed or made and
    /// the user's links kept, the links that point at nothing counted (`UpdateLedger`), before
    /// a row of the model is written.
    case count
    /// The new seed's objects inserted and its changes made; links carried.
    case insertAndChange
    /// Ordered to-manys' positions numbered again where the new seed's objects joined them.
    case renumberPositions
    /// The objects the new seed no longer holds deleted, unless the user changed them or
    /// something of the user's points at them.
    case remove
    /// The objects whose many-to-many links the update changed noted.
    case noteLinkChanges
    /// The report of what was added, changed, removed and left to the user, built once.
    case report
    /// The store's record rewritten for the new seed.
    case rewriteRecord
    /// `Z_PRIMARYKEY` and the metadata rewritten (the new seed's digest, `Z_MAX`).
    case rewriteBookkeeping
    /// The result counted and checked against the count and the report
    /// (`UpdateLedger.requireConserved`): a difference rolls everything back.
    case checkConservation
}
