import ArgumentParser
import Foundation
import SeedModel
import SeedRuntime
import SeedStore

/// `seedgen install`: installs a seed as a store that a later seed can update, as the runtime's
/// installer does under the policy `.update` (`SeedInstaller`, the same code path).
struct InstallCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "install",
        abstract: "Install a seed as a new store that later seeds can update (what the runtime's policy .update does on first start).",
        discussion: """
            Copies the seed to a temporary file beside STORE, syncs and checks the copy (its \
            model's hashes, its seal), records in it the seed it holds (SEEDGEN_PACKED and \
            SEEDGEN_LINKED: ten bytes an object, from a digest of its row and of its key, and \
            each many-to-many link), unless the seed carries that record (built with \
            --updatable: the install is then a copy), and links it into place, never over an \
            existing file. \
            seedgen update needs that record to tell the user's changes from the seed's: a \
            plain copy of a seed has none. Exit status: 0 when installed; 1 when STORE exists \
            (seedgen update brings a newer seed into it) or the seed fails a check; 2 when a \
            file cannot be read or written. Example: seedgen install EMPlan.sqlite installed.sqlite
            """
    )

    @Argument(help: "The seed, built by seedgen.")
    var seed: String

    @Argument(help: "Where the new store goes (must not exist).")
    var store: String

    @Option(help: ArgumentHelp("The model the seed must be of. " + modelHelp + " Without it, the model the seed carries."))
    var model: String?

    @OptionGroup var schema: SchemaOption

    func run() throws {
        if FileSystem.kind(of: store) != .missing {
            throw CommandFailure.failed("\(store) exists; nothing was installed (seedgen update brings a newer seed into an installed store)")
        }
        let layout = try model.map { try StoreLayout(model: loadModel($0, schema: schema.schema)) } ?? carriedLayout(of: seed)
        let report: InstallReport
        do {
            report = try SeedInstaller(seedPath: seed, storePath: store, layout: layout, policy: .update).install()
        } catch {
            switch error.reason {
            case .fileSystem, .storeUnreadable: throw CommandFailure.usage("\(error)")
            default: throw CommandFailure.failed("\(error)")
            }
        }
        switch report.action {
        case .installed:
            print("\(store): installed from \(seed), the seed recorded for later updates")
        default:
            // Another process made the store between the look above and the installer's lock.
            throw CommandFailure.failed("\(store) appeared while installing; nothing was installed over it (\(report.action))")
        }
    }
}
