import Foundation
import SeedRuntime
import SeedStore

// Where the app finds its seed: the store the plugin built, as a resource of this target.
guard let seed = Bundle.module.url(forResource: "Shelf", withExtension: "sqlite") else {
    print("no Shelf.sqlite in the bundle")
    exit(1)
}
print(seed.path)

// The model comes with the seed: no model source, no hand-added resource.
let layout = try StoreLayout(modelCarriedBy: seed.path)
let store = (CommandLine.arguments.dropFirst().first ?? DataDirectory.path(forApp: "shelfapp")) + "/Shelf.sqlite"
let installer = SeedInstaller(seedPath: seed.path, storePath: store, layout: layout)

func reportBrokenBundle(_ path: String, _ problem: String) { print("the app's seed \(path) is damaged: \(problem)") }
func askTheUserToFreeSpace() { print("no space left for the store") }
func retryLater() { print("the store is in use; try again later") }
func log(_ message: String) { print(message) }

// README: handling install errors.
do {
    let report = try installer.install()
    print("install: \(report.action)")
} catch {
    switch error.reason {
    case .badSeed(let path, let problem): reportBrokenBundle(path, problem)    // the app's own seed is damaged
    case .fileSystem(_, _, .noSpace): askTheUserToFreeSpace()                   // errno as swift-system's Errno
    case .fileSystem(let operation, let path, let errno): log("\(operation) \(path): \(errno)")
    case .storeInUse: retryLater()                                             // another process has the store open
    case .storeUnreadable, .fillFailed, .initialisationCheckUnavailable, .updateFailed: log(error.description)
    }
}
// README end.

let container = try StoreContainer(storePath: store, layout: layout)
print("initialisationCheck: \(try container.isInitialised() ? "initialised" : "empty")")
