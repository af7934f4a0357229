import SeedModel
import SeedStore

/// The update's report, built once after the removals and the links' changes
/// (`UpdatePhase.report`).
struct UpdateReportBuilder: UpdateConcept {
    let context: UpdateContext

    /// The report of the whole update, built once after the removals (`removal`) and the
    /// links' changes (`noteLinkChanges`).
    func report(removal: RemovedObjects) throws -> SeedUpdateReport {
        var report = SeedUpdateReport(updated: true)
        for entity in concreteEntities {
            let digest = carriedDigest(entity, alias: "n")
            let rows = try database.rows("""
                SELECT m.FATE, m.KEY, m.SEED_PK FROM temp.\(Scratch.touched) m WHERE m.ENTITY = ? AND (m.FATE IN (\(Fate.add.sql), \(Fate.clash.sql), \(Fate.ownerDeleted.sql))
                  OR (m.FATE IN (\(Fate.user.sql), \(Fate.deleted.sql)) AND \(SeedRecord.differsFromSeededSQL("(SELECT \(digest) FROM seed.\(table(entity)) n WHERE n.Z_PK = m.SEED_PK)", seeded: "m.RECORDED_DIGEST"))))
                ORDER BY m.KEY
                """, [.integer(Int64(entity.number))])
            for row in rows {
                let object = try self.object(entity, key: row[1].text ?? "", row: row[2].integer, in: "seed")
                switch Fate(rawValue: row[0].text ?? "") {
                case .add?: report.added.append(object)
                case .clash?: report.keptUserObject.append(object)
                case .user?: report.keptChangedByUser.append(object)
                case .deleted?: report.keptDeletedByUser.append(object)
                case .ownerDeleted?: report.notAddedOwnerDeleted.append(object)
                case .changed?, .seeded?, nil: break
                }
            }
        }
        report.changed = try LinkChanges(context: context).changedObjects()
        report.keptChangedByUser += removal.keptChangedByUser
        report.removed = removal.removed
        report.keptLinked = removal.keptLinked
        return report
    }
}
