import ArgumentParser
import Foundation
import SeedModel
import SeedModelLoader
import SeedRuntime
import SeedStore

/// The options every seed app takes: where its data lives, which seed and model it ships with.
package struct StoreOptions: ParsableArguments {
    @Option(name: .customLong("data-dir"), help: ArgumentHelp("Where the store lives (default: the user data directory).", valueName: "dir"))
    package var dataDirectory: String?

    @Option(help: ArgumentHelp("The seed store installed on first start (default: build/seeds/<Name>.sqlite, made by `make seed`).", valueName: "file"))
    package var seed: String?

    @Option(help: ArgumentHelp("The model (default: Seeds/<Name>/<Name>.xcdatamodeld).", valueName: "path"))
    package var model: String?

    package init() {}

    /// The package this program was built from: its seeds and `make seed` output are the defaults.
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The app's files: `app` names the data directory, `name` the seed folder and store file.
    package func paths(app: String, name: String) -> (store: String, seed: String, model: String) {
        let directory = dataDirectory ?? DataDirectory.path(forApp: app)
        return (URL(fileURLWithPath: directory).appendingPathComponent("\(name).sqlite").path,
                seed ?? Self.packageRoot.appendingPathComponent("build/seeds/\(name).sqlite").path,
                model ?? Self.packageRoot.appendingPathComponent("Seeds/\(name)/\(name).xcdatamodeld").path)
    }

    /// Loads the model and makes the installer for the app's store, and the model's layout.
    package func installer(app: String, name: String) throws -> (installer: SeedInstaller, layout: StoreLayout) {
        let paths = paths(app: app, name: name)
        let layout = try StoreLayout(model: try ModelLoader.load(from: paths.model))
        return (SeedInstaller(seedPath: paths.seed, storePath: paths.store, layout: layout), layout)
    }

    /// Installs the seed when the store is missing, then opens the store.
    package func open(app: String, name: String) throws -> StoreContainer {
        let (installer, layout) = try installer(app: app, name: name)
        let report = try installer.install()
        Self.describe(report)
        return try StoreContainer(storePath: installer.storePath, layout: layout)
    }

    /// Tells the user on standard error what the install did, when it did something.
    package static func describe(_ report: InstallReport) {
        var lines: [String] = []
        switch report.action {
        case .installed: lines.append("installed the seed store at \(report.storePath)")
        case .replaced(let backup): lines.append("replaced \(report.storePath) with the seed; the old store is at \(backup)")
        case .updated(let update):
            lines.append("brought the new seed into \(report.storePath): \(update.added.count) added, \(update.changed.count) changed, \(update.removed.count) removed; kept for you: \(update.keptChangedByUser.count + update.keptDeletedByUser.count + update.keptLinked.count + update.keptUserObject.count)")
        case .alreadyPresent: break
        }
        switch report.seed {
        case .differs(let reasons) where report.action == .alreadyPresent:
            lines.append("note: the bundled seed differs from the one \(report.storePath) came from; keeping your data (\(reasons.joined(separator: "; ")))")
        case .unavailable(let reason):
            lines.append("note: the bundled seed cannot be read (\(reason)); using the store that is there")
        default:
            break
        }
        lines += report.cleanedUp.map { "cleaned up \($0) (left by an interrupted start)" }
        for line in lines { FileHandle.standardError.write(Data((line + "\n").utf8)) }
    }
}

/// A failure the program reports as `Error: …` with exit status 1 (not a usage error).
package struct AppError: Error, CustomStringConvertible {
    /// What went wrong.
    package var description: String

    /// An error with this message.
    package init(_ description: String) {
        self.description = description
    }
}

/// A time given on the command line in ISO 8601 (`2026-11-22T10:15:03Z`, fractional seconds allowed).
package struct Timestamp: ExpressibleByArgument, Sendable {
    /// The time.
    package var date: Date

    private static let withFraction = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
    private static let withoutFraction = Date.ISO8601FormatStyle()

    /// Parses an ISO 8601 time; nil (a usage error) for anything else.
    package init?(argument: String) {
        guard let date = (try? Self.withFraction.parse(argument)) ?? (try? Self.withoutFraction.parse(argument)) else { return nil }
        self.date = date
    }
}

extension Date {
    /// `2026-11-22 10:15:03.250` in UTC, for listings (the proleptic Gregorian calendar, as everywhere).
    package var listingText: String {
        DateText.listing(secondsSinceReferenceDate: timeIntervalSinceReferenceDate)
    }
}
