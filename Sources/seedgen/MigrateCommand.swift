import ArgumentParser
import SeedModel
import SeedEvolution
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
            why) and what the store loses with what the version removes (rows, values, links, \
            counted), then the store is migrated in place in one SQLite transaction: wholly or not \
            at all, in its own journal mode; before the commit the result is counted against the \
            store (every row and link kept, every value made required set) and checked as seedgen \
            verify checks a store's structure, else it is rolled back. A write a killed run left is rolled back first. With --dry-run nothing is \
            written: the migration is run, every check included, and rolled back, so the dry run \
            says what the run would do (it needs to write the store, as the run does). Exit 0 when the store was migrated, would be, or is current; 1 when the \
            bundle lacks the store's version, Core Data would refuse the migration, the store \
            holds what seedgen cannot carry over (persistent history, triggers, tables no entity \
            describes) or the result would lose what the store holds, with the store unchanged; \
            2 when the store or model cannot be read or written.
            """
    )

    @Argument(help: "The store file.")
    var store: String

    @Option(name: .long, help: ArgumentHelp("The model bundle (.xcdatamodeld) holding the store's version and the current one. " + modelHelp))
    var model: String

    @OptionGroup var schema: SchemaOption

    @Flag(help: "Print the plan and what the run would do (it is run and rolled back); change nothing.")
    var dryRun = false

    @Flag(help: "Print the plan and the outcome as JSON.")
    var json = false

    func run() throws {
        try FileRefusal.checkStore(store)
        let versions = try loadModelVersions(model, schema: schema.schema)
        let migrator = StoreMigrator(storeAt: store, versions: versions)
        let plan: MigrationPlan, assessment: StoreAssessment
        do {
            // A write a killed run left is rolled back first (a dry run only reads: it says so).
            if !dryRun { try migrator.recoverInterruptedWrite() }
            // A migration counts what it removes itself (its report's plan): counted once.
            (plan, assessment) = try migrator.plan(countingRemovals: dryRun)
        } catch {
            throw CommandFailure(message: error.description, exitCode: Self.exitCode(error.reason))
        }
        var outcome = Outcome(plan: plan, assessment: assessment)
        let current = plan.sourceVersion == plan.destinationVersion
        // Migrated even when current: under the write lock it removes what a killed run left.
        if assessment.isPossible && !(dryRun && current) {
            do {
                if dryRun {
                    // The run itself, rolled back: every check it makes, none foreseen apart.
                    _ = try migrator.rehearse()
                } else {
                    let report = try migrator.migrate()
                    if report.migrated { (outcome.plan, outcome.assessment) = (report.plan, report.assessment) }
                    outcome.migrated = report.migrated
                    outcome.rows = report.rowCounts.values.reduce(0, +)
                    outcome.indexesTakenOver = report.indexesTakenOver
                }
            } catch {
                outcome.failure = (error.description, Self.exitCode(error.reason))
            }
        }
        if json {
            print(try jsonText(Report(store: store, outcome: outcome)))
        } else {
            printPlan(outcome.plan, outcome.assessment, failed: outcome.failure != nil)
            if let (message, _) = outcome.failure {
                printError("seedgen: error: \(message)")
            } else if let migrated = outcome.migrated, !current {
                printLine(migrated ? "migrated: \(outcome.rows) rows carried over" : "migrated already (by another process): nothing written")
            }
        }
        if let (_, code) = outcome.failure { throw CommandFailure(message: nil, exitCode: code) }
        if !assessment.isPossible { throw CommandFailure(message: nil, exitCode: 1) }
    }

    /// The exit status of a migration error, by the one rule: 2 when a file cannot be read or
    /// written, 1 when the store is wrong for the migration (a version the bundle lacks, a refusal).
    static func exitCode(_ reason: MigrationError.Reason) -> Int32 {
        switch reason {
        case .unreadableStore, .writeFailed: 2
        case .damagedStore, .unknownVersion, .refused, .foreignContent, .notCarriedOut, .notConserved, .customStage: 1
        }
    }

    /// What the command found and did.
    struct Outcome {
        var plan: MigrationPlan
        var assessment: StoreAssessment
        /// nil with --dry-run or a refusal.
        var migrated: Bool?
        var rows = 0
        var indexesTakenOver: [String] = []
        /// Why the migration was not carried out, and the exit code.
        var failure: (message: String, code: Int32)?
    }

    /// The plan, then whether the migration can be done: not when Core Data would refuse it,
    /// nor when the store's own check (or the run) `failed`, whose error follows.
    private func printPlan(_ plan: MigrationPlan, _ assessment: StoreAssessment, failed: Bool) {
        printLine("store: \(store)")
        printLine("from: \(plan.sourceVersion) (the store's version hashes)")
        printLine("to: \(plan.destinationVersion) (current)")
        if plan.sourceVersion == plan.destinationVersion || (plan.changesNothing && assessment.isPossible) {
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
        for line in Self.removalLines(assessment.removals) { printLine(line) }
        for warning in assessment.warnings { printError("seedgen: warning: \(warning)") }
        if assessment.isPossible && !failed {
            printLine("the migration can be done")
        } else if assessment.isPossible {
            printLine("the migration cannot be done on this store:")
        } else {
            printLine("refused:")
            for refusal in assessment.refusals { printLine("  \(refusal)") }
        }
    }

    /// What the store loses, one line each ("Referee: 1 row deleted", "Club.city: 1 value dropped").
    static func removalLines(_ removals: [MigrationPlan.Removal]) -> [String] {
        func counted(_ count: Int, _ what: String) -> String { "\(count) \(what)\(count == 1 ? "" : "s")" }
        return removals.map { removal in
            switch removal.subject {
            case .entity(let name):
                "the store loses \(name): \(counted(removal.count, "row")) deleted"
            case .attribute(let entity, let name):
                "the store loses \(entity).\(name): \(counted(removal.count, "value")) dropped"
            case .relationship(let entity, let name):
                "the store loses \(entity).\(name): \(counted(removal.count, "link")) dropped"
            }
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
            /// A warning's advised renaming identifier (`looksLikeRename`), for a tool to apply.
            var identifier: String? = nil
        }
        var store: String
        var from: String
        var to: String
        var current: Bool
        var possible: Bool
        var entities: [Entity]
        var removedEntities: [String]
        /// What the store loses with what the new version removes: an entity's rows, a
        /// property's values or links, counted on the store.
        var removals: [Removal]
        struct Removal: Encodable {
            var entity: String
            var property: String?
            var count: Int
        }

        static func removals(_ removals: [MigrationPlan.Removal]) -> [Removal] {
            removals.map { removal in
                switch removal.subject {
                case .entity(let name): Removal(entity: name, property: nil, count: removal.count)
                case .attribute(let entity, let name), .relationship(let entity, let name): Removal(entity: entity, property: name, count: removal.count)
                }
            }
        }
        var refusals: [Refusal]
        /// What the migration does that a team most likely did not mean (same fields as a refusal).
        var warnings: [Refusal]
        /// Set when the migration was tried: false when nothing was written (the store was current).
        var migrated: Bool?
        var rowsCarried: Int?
        /// The new version's indexes that took over a source index's entries (not sorted again).
        var indexesTakenOver: [String]?
        /// Why seedgen did not carry the migration out (beyond Core Data's refusals).
        var error: String?

        init(store: String, outcome: Outcome) {
            let (plan, assessment) = (outcome.plan, outcome.assessment)
            migrated = outcome.migrated
            rowsCarried = outcome.migrated == true ? outcome.rows : nil
            indexesTakenOver = outcome.migrated == true ? outcome.indexesTakenOver : nil
            error = outcome.failure?.message
            self.store = store
            from = plan.sourceVersion
            to = plan.destinationVersion
            current = plan.sourceVersion == plan.destinationVersion || (plan.changesNothing && assessment.isPossible)
            // Possible only when nothing stood in its way: a dry run's check of the store, or the
            // run itself, may refuse what the plan allows (`error` says why).
            possible = assessment.isPossible && outcome.failure == nil
            entities = plan.entities.map { entity in
                Entity(name: entity.name, source: entity.source, properties: entity.properties.map {
                    Property(name: $0.name, source: $0.source, change: Self.words($0))
                })
            }
            removedEntities = plan.removedEntities
            removals = Self.removals(assessment.removals)
            refusals = assessment.refusals.map { Refusal(reason: $0.reason.rawValue, subject: $0.subject, message: $0.message) }
            warnings = assessment.warnings.map { Refusal(reason: $0.reason.rawValue, subject: $0.subject, message: $0.message, identifier: $0.advisedIdentifier) }
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
            case .reshaped(let reshaping): words += Self.words(reshaping)
            case .refused: words.append("refused")
            }
            return words.joined(separator: ", ")
        }

        /// Each fact of a reshaping, in words.
        static func words(_ reshaping: MigrationPlan.Reshaping) -> [String] {
            var words: [String] = []
            switch reshaping.cardinality {
            case .toMany?: words.append("to-one → to-many")
            case .toOne?: words.append("to-many → to-one")
            case nil: break
            }
            switch reshaping.ordering {
            case .ordered?: words.append("unordered → ordered")
            case .unordered?: words.append("ordered → unordered")
            case nil: break
            }
            switch reshaping.optionality {
            case .optional?: words.append("required → optional")
            case .required(let value?)?: words.append("required now, rows without a value get \(value)")
            case .required(nil)?: words.append("optional → required")
            case nil: break
            }
            return words
        }
    }
}
