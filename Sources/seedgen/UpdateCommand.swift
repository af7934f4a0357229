import ArgumentParser
import Foundation
import SeedModel
import SeedEvolution
import SeedStore

/// `seedgen update`: brings a newer seed into a store installed from an older one, keeping the
/// user's changes (`SeedUpdater`, the runtime's code path).
struct UpdateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "update",
        abstract: "Bring a newer seed into a store installed from an older seed of the model, keeping what the user changed.",
        discussion: """
            In one SQLite transaction: objects the new seed adds are inserted (the store's next \
            Z_PKs, relationships carried into its numbering), objects it changes are changed and \
            objects it no longer holds are deleted — unless the user changed them since install \
            (their values stay), deleted them (not brought back), or something of the user's \
            points at them (kept); what it adds beneath an object the user deleted is not added. \
            Objects the user made are never touched. Objects are matched by \
            key: the store's record of the seed it was installed from (SEEDGEN_SEEDED, written \
            by seedgen install or the runtime's policy .update; a plain copy of a seed has none) \
            against the new seed's, made from its rows; whether the user changed one is told by \
            its row's digest. Before the commit the result is counted \
            against the store and the report (each entity's rows, the user's changed objects), \
            else it is rolled back. The store then records the new seed: the same update again \
            changes nothing. Each object is printed with what happened to it (+ added, \
            ~ changed, - removed, = kept and why), then the counts. A store of an older model \
            version is first migrated to the seed's as seedgen migrate does (its own transaction; \
            the seed record is carried over), with the bundle --model names, or without --model \
            with the models the seed and the store carry (seedgen builds carry theirs). Exit \
            status: 0 when the store was updated or held the seed already; 1 when it cannot be \
            updated (no seed record, a version the bundle lacks, a migration Core Data would \
            refuse, or a result that would not keep what the store holds), the store unchanged; 2 when a file cannot be read or written. Example: seedgen update EMPlan.sqlite --seed EMPlan-2.sqlite
            """
    )

    @Argument(help: "The installed store (installed from an older seed by seedgen install or the runtime's policy .update, changed by its app).")
    var store: String

    @Option(help: "The new seed, built by seedgen from the same model.")
    var seed: String

    @Option(help: ArgumentHelp(modelHelp + " A bundle's older versions migrate an older store first. Without it, the models the seed and the store carry."))
    var model: String?

    @OptionGroup var schema: SchemaOption

    @Flag(help: "Print the report as JSON.")
    var json = false

    func run() throws {
        let versions = try model.map { try loadModelVersions($0, schema: schema.schema) }
        let report: SeedUpdateReport
        do {
            if let versions {
                report = try SeedUpdater(storeAt: store, seedAt: seed, versions: versions).update()
            } else {
                report = try SeedUpdater(storeAt: store, seedAt: seed).update()
            }
        } catch {
            switch error.reason {
            case .noSeedRecord, .otherModelVersion, .notConserved, .damaged: throw CommandFailure.failed("\(error)")
            case .unreadable, .writeFailed: throw CommandFailure.usage("\(error)")
            }
        }
        if json {
            print(try jsonText(Report(report)))
        } else if !report.updated {
            print("\(store): holds this seed already; nothing changed")
        } else {
            if let from = report.migratedFrom {
                print("\(store): migrated from \(from) to \(versions?.current.name ?? "the new seed's model") first")
                for line in MigrateCommand.removalLines(report.migrationRemovals) { print(line) }
                for warning in report.migrationWarnings { printError("seedgen: warning: \(warning)") }
            }
            for line in report.objectLines { print(line) }
            print("\(store): \(report.counts); it now holds seed \(report.seedDigest ?? "?")")
        }
    }

    /// The report in `--json` output.
    struct Report: Encodable {
        struct Object: Encodable {
            var entity: String
            var key: String
        }

        var updated: Bool
        var seedDigest: String?
        var migratedFrom: String?
        /// What the migration first removed, counted on the store.
        var migrationRemovals: [MigrateCommand.Report.Removal]
        var added, changed, removed, keptChangedByUser, keptDeletedByUser, notAddedOwnerDeleted, keptLinked, keptUserObject: [Object]

        init(_ report: SeedUpdateReport) {
            func objects(_ list: [SeedUpdateReport.Object]) -> [Object] { list.map { Object(entity: $0.entity, key: $0.key) } }
            updated = report.updated
            seedDigest = report.seedDigest
            migratedFrom = report.migratedFrom
            migrationRemovals = MigrateCommand.Report.removals(report.migrationRemovals)
            added = objects(report.added)
            changed = objects(report.changed)
            removed = objects(report.removed)
            keptChangedByUser = objects(report.keptChangedByUser)
            keptDeletedByUser = objects(report.keptDeletedByUser)
            notAddedOwnerDeleted = objects(report.notAddedOwnerDeleted)
            keptLinked = objects(report.keptLinked)
            keptUserObject = objects(report.keptUserObject)
        }
    }
}
