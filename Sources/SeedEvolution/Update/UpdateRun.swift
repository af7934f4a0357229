import SeedStore

/// One seed update as its phases run inside the write transaction (`UpdatePhase`), and what
/// each leaves for the next.
struct UpdateRun {
    let step: UpdateStep
    let path: String
    /// The new seed's metadata.
    let seed: StoreMetadata
    /// The count before a row of the model is written (`.count`).
    private var ledger: UpdateLedger?
    /// What the removal did (`.remove`), for the report.
    private var removal = ObjectRemoval()
    /// What the update did (`.report`, built once).
    private(set) var report = SeedUpdateReport(updated: false)

    init(step: UpdateStep, path: String, seed: StoreMetadata) {
        self.step = step
        self.path = path
        self.seed = seed
    }

    mutating func perform(_ phase: UpdatePhase) throws {
        let database = step.database
        switch phase {
        case .settleRecordNumbers:
            try RecordNumbers(in: database, layout: step.store).settle(in: database)
        case .settleDigests:
            try SeedRecord.settleDigests(in: database, layout: step.store, path: path,
                                         renamingFrom: (names: step.seedNames(buildKeys: seed.buildKeys), record: "temp.\(UpdateScratch.newRecord)"))
        case .recordSeed:
            try step.recordSeed(buildKeys: seed.buildKeys)
        case .resolveRecordedKeys:
            try SeedRecord.resolveKeysKnownByCheck(in: database, seeded: "temp.\(UpdateScratch.newRecord)")
        case .classify:
            try step.classify()
        case .count:
            ledger = try UpdateLedger(counting: database, store: step.store, touched: try step.touchedEntities())
        case .markChanges:
            try step.markChanges()
        case .insertAndChange:
            try step.insertAndChange()
        case .renumberPositions:
            try step.renumberPositions()
        case .remove:
            removal = try step.remove()
        case .noteLinkChanges:
            try step.noteLinkChanges()
        case .report:
            report = try step.report(removal: removal)
        case .rewriteRecord:
            try step.rewriteRecord()
        case .rewriteBookkeeping:
            try step.rewriteBookkeeping(metadata: try StoreMetadata.updating(database.metadataRow()?.plist ?? [], toSeed: seed))
            report.updated = true
        case .checkConservation:
            // Never skipped: a run whose count did not come first is refused.
            guard let ledger else { throw SeedUpdateError(.notConserved([.notCounted]), ConservationFinding.message([.notCounted], engine: "update", path: path)) }
            try ledger.requireConserved(in: database, store: step.store, report: report, path: path)
        }
    }
}
