import SeedStore

/// One seed update as its phases run inside the write transaction (`UpdatePhase`), and what
/// each leaves for the next.
struct UpdateRun {
    let context: UpdateContext
    let path: String
    /// The new seed's metadata.
    let seed: StoreMetadata
    /// The count before a row of the model is written (`.count`).
    private var ledger: UpdateLedger?
    /// What the removal did (`.remove`), for the report.
    private var removed = RemovedObjects()
    /// What the update did (`.report`, built once).
    private(set) var report = SeedUpdateReport(updated: false)

    init(context: UpdateContext, path: String, seed: StoreMetadata) {
        self.context = context
        self.path = path
        self.seed = seed
    }

    mutating func perform(_ phase: UpdatePhase) throws {
        let database = context.database
        let classification = UpdateClassification(context: context), changes = SeedChanges(context: context), links = LinkChanges(context: context)
        switch phase {
        case .settleRecordNumbers:
            try RecordNumbers(in: database, layout: context.store).settle(in: database)
        case .settleDigests:
            try SeedRecord.settleDigests(in: database, layout: context.store, path: path,
                                         renamingFrom: (names: context.seedNames(buildKeys: seed.buildKeys), record: "temp.\(UpdateScratch.newRecord)"))
        case .recordSeed:
            try classification.recordSeed(buildKeys: seed.buildKeys)
        case .resolveRecordedKeys:
            try SeedRecord.resolveKeysKnownByCheck(in: database, seeded: "temp.\(UpdateScratch.newRecord)")
        case .classify:
            try classification.classify()
        case .markChanges:
            try changes.markChanges()
        case .count:
            ledger = try UpdateLedger(counting: database, store: context.store, touched: try changes.touchedEntities())
        case .insertAndChange:
            try changes.insertAndChange()
            try links.updateLinks()
        case .renumberPositions:
            try changes.renumberPositions()
        case .remove:
            removed = try ObjectRemoval(context: context).remove()
        case .noteLinkChanges:
            try links.noteLinkChanges()
        case .report:
            report = try UpdateReportBuilder(context: context).report(removal: removed)
        case .rewriteRecord:
            try RecordRewrite(context: context).rewriteRecord()
        case .rewriteBookkeeping:
            try RecordRewrite(context: context).rewriteBookkeeping(metadata: try StoreMetadata.updating(database.metadataRow()?.plist ?? [], toSeed: seed))
            report.updated = true
        case .checkConservation:
            // Never skipped: a run whose count did not come first is refused.
            guard let ledger else { throw SeedUpdateError(.notConserved([.notCounted]), ConservationFinding.message([.notCounted], engine: "update", path: path)) }
            try ledger.requireConserved(in: database, store: context.store, report: report, path: path)
        }
    }
}
