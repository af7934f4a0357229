import ArgumentParser
import Foundation
import SeedApps
import SeedStore

/// Seed 001: events with a creation date and a position; add, list, delete.
@main
struct Locations: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "locations",
        abstract: "Keep a list of places with the time they were added (seed 001).",
        subcommands: [Add.self, List.self, Delete.self],
        defaultSubcommand: List.self
    )

    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Add an event at a latitude and longitude.")
        @OptionGroup var store: StoreOptions
        @Argument(help: "Latitude in degrees (-90…90).") var latitude: Double
        @Argument(help: "Longitude in degrees (-180…180).") var longitude: Double
        @Option(help: ArgumentHelp("The creation date, ISO 8601 (default: now).", valueName: "time")) var at: Timestamp?

        func validate() throws {
            guard (-90...90).contains(latitude) else { throw ValidationError("latitude \(latitude) is not within -90…90") }
            guard (-180...180).contains(longitude) else { throw ValidationError("longitude \(longitude) is not within -180…180") }
        }

        func run() throws {
            let time = at?.date ?? Date()
            let container = try store.open(app: "locations", name: "Locations")
            let event = try container.writeAndWait {
                try $0.insert("Event", ["creationDate": .date(time), "latitude": .real(latitude), "longitude": .real(longitude)])
            }
            print("added event \(event.primaryKey)")
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the events, newest first.")
        @OptionGroup var store: StoreOptions
        @Option(help: "Show at most this many.") var limit: Int?

        func run() throws {
            let container = try store.open(app: "locations", name: "Locations")
            let events = try container.viewContext.fetch("Event", sortedBy: [.init("creationDate", ascending: false)], limit: limit)
            if events.isEmpty { print("no events") }
            for event in events {
                let time = event.date("creationDate")?.listingText ?? "(no date)"
                print(String(format: "%4lld  %@  %10.6f %11.6f", event.primaryKey, time, event.double("latitude") ?? 0, event.double("longitude") ?? 0))
            }
        }
    }

    struct Delete: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Delete the event with the number `list` shows.")
        @OptionGroup var store: StoreOptions
        @Argument(help: "The event's number.") var number: Int64

        func run() throws {
            let container = try store.open(app: "locations", name: "Locations")
            try container.writeAndWait { try $0.delete(ObjectID(entity: "Event", primaryKey: number)) }
            print("deleted event \(number)")
        }
    }
}
