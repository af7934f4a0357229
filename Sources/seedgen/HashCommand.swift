import ArgumentParser
import Foundation
import SeedModel

/// `seedgen hash`: prints each entity's version hash.
struct HashCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hash",
        abstract: "Print each entity's Core Data version hash (base64), as a store's metadata holds it."
    )

    @OptionGroup var model: ModelOption

    @Flag(help: "Print a JSON object: entity name -> base64 hash.")
    var json = false

    func run() throws {
        let loaded = try model.load()
        let hashes = VersionHasher(model: loaded).entityHashes().mapValues { Data($0).base64EncodedString() }
        if json {
            print(try jsonText(hashes))
            return
        }
        let width = hashes.keys.map(\.count).max() ?? 0
        for name in hashes.keys.sorted(by: DataModel.namePrecedes) {
            print(name.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + hashes[name]!)
        }
    }
}
