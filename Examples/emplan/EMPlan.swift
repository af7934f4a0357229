import ArgumentParser
import Foundation
import SeedApps
import SeedImport
import SeedRuntime
import SeedStore

/// Seed 004: the Euro 2012 plan. Installs the seed on first start, fills an uninitialised
/// store from setup.plist, and lists groups, squads and the match plan.
@main
struct EMPlan: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "emplan",
        abstract: "The Euro 2012 match plan (seed 004).",
        subcommands: [Status.self, Groups.self, Team.self, Matches.self],
        defaultSubcommand: Status.self
    )

    /// The store options plus the source data used when the store needs filling.
    struct Options: ParsableArguments {
        @OptionGroup var store: StoreOptions
        @Option(help: ArgumentHelp("The source data for an uninitialised store (default: Seeds/EMPlan/setup.plist).", valueName: "file"))
        var source: String?

        /// Runs the first-start flow and opens the store.
        func open() throws -> StoreContainer {
            let (installer, layout) = try store.installer(app: "emplan", name: "EMPlan")
            let source = source ?? URL(fileURLWithPath: store.paths(app: "emplan", name: "EMPlan").model)
                .deletingLastPathComponent().appendingPathComponent("setup.plist").path
            let outcome = try FirstStart.run(installer) { path in
                let builder = try StoreBuilder(layout: layout, outputPath: path)
                let importer = SeedImporter(builder: builder)
                try importer.importFile(source)
                try importer.finish()
                _ = try builder.finish()
            }
            switch outcome {
            case .installedSeed: note("installed the seed store at \(installer.storePath)")
            case .filled(let backup): note("filled \(installer.storePath) from \(source) (the uninitialised store is kept at \(backup))")
            case .alreadyInitialised: break
            }
            return try StoreContainer(storePath: installer.storePath, layout: layout)
        }

        private func note(_ line: String) {
            FileHandle.standardError.write(Data((line + "\n").utf8))
        }
    }

    struct Status: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Prepare the store and report the initialisation check.")
        @OptionGroup var options: Options

        func run() throws {
            let container = try options.open()
            print("store: \(container.storePath)")
            let initialised = try container.isInitialised()
            print("initialisationCheck: \(initialised ? "initialised" : "NOT initialised")")
            let teams = try container.viewContext.count("Team")
            let matches = try container.viewContext.count("Match")
            print("\(teams) teams, \(matches) matches")
            if !initialised { throw AppError("the store is not initialised") }
        }
    }

    struct Groups: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the groups with their teams.")
        @OptionGroup var options: Options

        func run() throws {
            let context = try options.open().viewContext
            for group in try context.fetch("Group", sortedBy: [.init("name")]) {
                let name = group.string("name") ?? "?"
                let teams = try context.fetch("Team", where: "group.name == $NAME", variables: ["NAME": .text(name)], sortedBy: [.init("name")])
                print("Group \(name): \(teams.compactMap { $0.string("name") }.joined(separator: ", "))")
            }
        }
    }

    struct Team: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Show a team's coach and squad.")
        @OptionGroup var options: Options
        @Argument(help: "The team's name as in the plan, e.g. Deutschland.") var name: String

        func run() throws {
            let context = try options.open().viewContext
            guard try context.count("Team", where: "name ==[c] $NAME", variables: ["NAME": .text(name)]) > 0 else {
                throw AppError("no team '\(name)'; `emplan groups` lists them")
            }
            let team = "team.name ==[c] $NAME"
            for coach in try context.fetch("Coach", where: team, variables: ["NAME": .text(name)]) {
                print("Coach: \(Self.fullName(coach))")
            }
            let players = try context.fetch("Player", where: team, variables: ["NAME": .text(name)], sortedBy: [.init("position"), .init("name")])
            print("Squad (\(players.count)):")
            for player in players {
                let number = player.integer("number").map { String(format: "%2lld", $0) } ?? " -"
                let position = player.string("position").map { "  \($0)" } ?? ""
                print("  \(number)  \(Self.fullName(player))\(position)")
            }
        }

        static func fullName(_ human: FetchedObject) -> String {
            [human.string("givenname"), human.string("name")].compactMap { $0 }.joined(separator: " ")
        }
    }

    struct Matches: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "The match plan in kick-off order.")
        @OptionGroup var options: Options

        func run() throws {
            let context = try options.open().viewContext
            for match in try context.fetch("Match", sortedBy: [.init("date"), .init("number")]) {
                let home = match.string("home") ?? match.string("homePlaceholder") ?? "?"
                let guest = match.string("guest") ?? match.string("guestPlaceholder") ?? "?"
                var score = ""
                if let h = match.integer("scoreHome"), let g = match.integer("scoreGuest") { score = "  \(h):\(g)" }
                let when = match.date("date")?.listingText.prefix(16) ?? "?"
                print("\(String(format: "%2lld", match.integer("number") ?? 0))  \(when)  \(match.string("stage") ?? "")  \(home) – \(guest)\(score)  (\(match.string("city") ?? ""))")
            }
        }
    }
}
