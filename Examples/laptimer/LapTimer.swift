import ArgumentParser
import Foundation
import SeedApps
import SeedStore

/// Seed 000: records laps and lists them newest first with the split to the previous lap.
@main
struct LapTimer: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "laptimer",
        abstract: "Record laps and list them with their splits (seed 000).",
        subcommands: [Lap.self, List.self],
        defaultSubcommand: List.self
    )

    struct Lap: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Record a lap (now, or at --at).")
        @OptionGroup var store: StoreOptions
        @Option(help: ArgumentHelp("The lap's time stamp, ISO 8601 (default: now).", valueName: "time")) var at: Timestamp?

        func run() throws {
            let time = at?.date ?? Date()
            let container = try store.open(app: "laptimer", name: "LapTimer")
            let lap = try container.writeAndWait { try $0.insert("Event", ["timeStamp": .date(time)]) }
            print("lap \(lap.primaryKey) at \(time.listingText)")
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List laps, newest first, with the split to the previous lap.")
        @OptionGroup var store: StoreOptions

        func run() throws {
            let container = try store.open(app: "laptimer", name: "LapTimer")
            let laps = try container.viewContext.fetch("Event", sortedBy: [.init("timeStamp", ascending: false)])
            guard !laps.isEmpty else {
                print("no laps yet; record one with `laptimer lap`")
                return
            }
            for (index, lap) in laps.enumerated() {
                guard let time = lap.date("timeStamp") else { continue }
                var line = "\(laps.count - index)  \(time.listingText)"
                if index + 1 < laps.count, let previous = laps[index + 1].date("timeStamp") {
                    line += String(format: "  +%.3f s", time.timeIntervalSince(previous))
                }
                print(line)
            }
        }
    }
}
