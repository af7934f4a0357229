import ArgumentParser
import SeedModel
import SeedStore

/// `seedgen migrate`: the lightweight migration Core Data would infer, for a store and a
/// model bundle, carried out in place (or, with `--dry-run`, only planned).
struct MigrateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "migrate",
        abstract: "Migrate a store to the model's current version, as Core Data's lightweight migration would.",
        discussion: """
            The store's version is the bundle's version whose entity hashes equal the store's \
            NSStoreModelVersionHashes; the plan goes to the version .xccurrentversion names. \
            Elements are matched by renaming identifier, else by name. The plan is printed (per \
            entity and property: kept, renamed from, added, removed, default filled, refused and \
            why), then the store is migrated in place in one SQLite transaction: wholly or not at \
            all, in its own journal mode. With --dry-run nothing is written. Exit 0 when the store \
            was migrated, would be, or is current; 1 when Core Data would refuse the migration or \
            the store holds what seedgen cannot carry over (persistent history, triggers, tables \
            no entity describes), with the store unchanged; 2 when the store or model cannot be \
            read or written.
            """
    )

    @Argument(help: "The store file.")
    var store: String

    @Option(name: .long, help: "The model bundle (.xcdatamodeld) holding the store's version and the current one.")
    var model: String

    @Flag(help: "Print the plan and change nothing.")
    var dryRun = false

    @Flag(help: "Print the plan and the outcome as JSON.")
    var json = false

    func run() throws {
        let versions = try loadModelVersions(model)
        let plan: MigrationPlan
        do {
            let source = try MigrationPlan.sourceVersion(ofStoreAt: store, in: versions)
            plan = try MigrationPlan(from: source, to: versions.current).checked(againstStoreAt: store, source: source)
        } catch {
            throw CommandFailure.usage("\(error)")
        }
        var outcome = Outcome(plan: plan)
        let current = plan.sourceVersion == plan.destinationVersion
        // Migrated even when current: under the write lock it removes what a killed run left.
        if plan.isPossible && !(dryRun && current) {
            let migrator = StoreMigrator(storeAt: store, versions: versions)
            do {
                if dryRun {
                    _ = try migrator.check()
                } else {
                    let report = try migrator.migrate()
                    outcome.migrated = report.migrated
                    outcome.rows = report.rowCounts.values.reduce(0, +)
                    outcome.indexesTakenOver = report.indexesTakenOver
                }
            } catch {
                switch error.reason {
                case .unreadableStore, .writeFailed, .unknownVersion: outcome.failure = (error.description, 2)
                case .refused, .foreignContent, .notCarriedOut: outcome.failure = (error.description, 1)
                }
            }
        }
        if json {
            print(try jsonText(Report(store: store, outcome: outcome)))
        } else {
            printPlan(plan)
            if let (message, _) = outcome.failure {
                printError("seedgen: error: \(message)")
            } else if let migrated = outcome.migrated, !current {
                printLine(migrated ? "migrated: \(outcome.rows) rows carried over" : "migrated already (by another process): nothing written")
            }
        }
        if let (_, code) = outcome.failure { throw CommandFailure(message: nil, exitCode: code) }
        if !plan.isPossible { throw CommandFailure(message: nil, exitCode: 1) }
    }

    /// What the command found and did.
    struct Outcome {
        var plan: MigrationPlan
        /// nil with --dry-run or a refusal.
        var migrated: Bool?
        var rows = 0
        var indexesTakenOver: [String] = []
        /// Why the migration was not carried out, and the exit code.
        var failure: (message: String, code: Int32)?
    }

    private func printPlan(_ plan: MigrationPlan) {
        printLine("store: \(store)")
        printLine("from: \(plan.sourceVersion) (the store's version hashes)")
        printLine("to: \(plan.destinationVersion) (current)")
        if plan.sourceVersion == plan.destinationVersion || plan.changesNothing {
            printLine("the store is at the current version: nothing to migrate")
            return
        }
        let width = plan.entities.flatMap { $0.properties.map(\.name.count) }.max() ?? 0
        for entity in plan.entities {
            switch entity.source {
            case nil: printLine("\(entity.name): added")
            case entity.name?: printLine("\(entity.name):")
            case let source?: printLine("\(entity.name): renamed from \(source)")
            }
            guard entity.source != nil else { continue }
            for property in entity.properties {
                printLine("  " + property.name.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + Report.words(property))
            }
        }
        for name in plan.removedEntities { printLine("\(name): removed (its rows are deleted)") }
        if plan.isPossible {
            printLine("the migration can be done")
        } else {
            printLine("refused:")
            for refusal in plan.refusals { printLine("  \(refusal)") }
        }
    }

    /// The JSON printed with `--json`.
    struct Report: Encodable {
        struct Property: Encodable {
            var name: String
            var source: String?
            var change: String
        }
        struct Entity: Encodable {
            var name: String
            var source: String?
            var properties: [Property]
        }
        struct Refusal: Encodable {
            var reason: String
            var subject: String
            var message: String
        }
        var store: String
        var from: String
        var to: String
        var current: Bool
        var possible: Bool
        var entities: [Entity]
        var removedEntities: [String]
        var refusals: [Refusal]
        /// Set when the migration was tried: false when nothing was written (the store was current).
        var migrated: Bool?
        var rowsCarried: Int?
        /// The new version's indexes that took over a source index's entries (not sorted again).
        var indexesTakenOver: [String]?
        /// Why seedgen did not carry the migration out (beyond Core Data's refusals).
        var error: String?

        init(store: String, outcome: Outcome) {
            let plan = outcome.plan
            migrated = outcome.migrated
            rowsCarried = outcome.migrated == true ? outcome.rows : nil
            indexesTakenOver = outcome.migrated == true ? outcome.indexesTakenOver : nil
            error = outcome.failure?.message
            self.store = store
            from = plan.sourceVersion
            to = plan.destinationVersion
            current = plan.sourceVersion == plan.destinationVersion || plan.changesNothing
            possible = plan.isPossible
            entities = plan.entities.map { entity in
                Entity(name: entity.name, source: entity.source, properties: entity.properties.map {
                    Property(name: $0.name, source: $0.source, change: Self.words($0))
                })
            }
            removedEntities = plan.removedEntities
            refusals = plan.refusals.map { Refusal(reason: $0.reason.rawValue, subject: $0.subject, message: $0.message) }
        }

        /// What happens to a property, in words ("renamed from coach, default filled: 0").
        static func words(_ property: MigrationPlan.PropertyStep) -> String {
            var words: [String] = []
            if let source = property.source, source != property.name, property.change != .removed { words.append("renamed from \(source)") }
            switch property.change {
            case .kept: if words.isEmpty { words.append("kept") }
            case .added(let value?): words.append("added, default \(value)")
            case .added(nil): words.append("added")
            case .removed: words.append("removed")
            case .defaultFilled(let value): words.append("required now, rows without a value get \(value)")
            case .reshaped(let shape): words.append(shape)
            case .refused: words.append("refused")
            }
            return words.joined(separator: ", ")
        }
    }
}
