import Foundation
import SeedModel
import SeedRuntime
import SeedStore
import SeedgenTestSupport
import Testing

/// The installer an app without the model's source uses (an iOS app has only the `.momd`):
/// the model named by its entity version hashes, from `seedgen hash --json` or a store's own
/// metadata, and no libxml2 in what the runtime links.
@Suite struct HashOnlyInstallerTests {
    let directory: TemporaryDirectory
    let seed: String
    let layout: StoreLayout

    init() throws {
        directory = try TemporaryDirectory()
        layout = try RuntimeFixtures.layout("EMPlan")
        seed = try RuntimeFixtures.bundledEMPlanSeed(in: directory)
    }

    /// The hashes `seedgen hash --json` prints for the EM-Plan model.
    static func printedIdentity() throws -> ModelIdentity {
        let model = RuntimeFixtures.seeds.appendingPathComponent("EMPlan/EMPlan.xcdatamodeld").path
        let hash = try SeedgenTool.run(program: SeedgenTool.program(named: "seedgen"), ["hash", "--model", model, "--json"])
        #expect(hash.status == 0, "\(hash.error)")
        return try ModelIdentity(json: Data(hash.output.utf8))
    }

    @Test("hashes from seedgen hash --json install the seed, then keep the store; they are the model's and the seed's own")
    func installsByHashes() throws {
        defer { directory.remove() }
        let identity = try Self.printedIdentity()
        #expect(identity == ModelIdentity(model: layout.model))
        #expect(try ModelIdentity(storeAt: seed) == identity)
        let store = directory.path("data/EMPlan.sqlite")
        let installer = SeedInstaller(seedPath: seed, storePath: store, model: identity)
        #expect(installer.layout == nil)
        let first = try installer.install()
        #expect(first.action == .installed)
        #expect(try StoreConnection.metadata(ofStoreAt: store).versionHashes == identity.entityVersionHashes)
        #expect(try SQLiteShell.rows(store, "SELECT count(*) FROM ZTEAM") == (try SQLiteShell.rows(seed, "SELECT count(*) FROM ZTEAM")))
        let second = try installer.install()
        #expect(second.action == .alreadyPresent && second.seed == .same)
    }

    @Test("a seed made for other hashes is refused and nothing is installed; a store of another model version is reported, kept")
    func otherHashes() throws {
        defer { directory.remove() }
        var hashes = ModelIdentity(model: layout.model).entityVersionHashes
        hashes["Team"]![0] ^= 0xFF
        let other = ModelIdentity(entityVersionHashes: hashes)
        let store = directory.path("data/EMPlan.sqlite")
        let refused = #expect(throws: InstallError.self) { try SeedInstaller(seedPath: seed, storePath: store, model: other).install() }
        guard case .badSeed(_, let problem) = refused?.reason else { Issue.record("\(String(describing: refused))"); return }
        #expect(problem.contains("made for another model") && problem.contains("entity Team"), "\(problem)")
        #expect(!FileManager.default.fileExists(atPath: store))
        _ = try SeedInstaller(seedPath: seed, storePath: store, model: ModelIdentity(model: layout.model)).install()
        // The app's model changed (other hashes) but its bundled seed did not: the store stays,
        // and the report says why the seed could not be compared.
        let report = try SeedInstaller(seedPath: seed, storePath: store, model: other).install()
        #expect(report.action == .alreadyPresent)
        guard case .unavailable(let reason) = report.seed else { Issue.record("\(report.seed)"); return }
        #expect(reason.contains("made for another model"), "\(reason)")
    }

    @Test("without a layout there is no initialisation check: replaceIfNotInitialised is refused with its own reason")
    func noInitialisationCheck() throws {
        defer { directory.remove() }
        let store = directory.path("data/EMPlan.sqlite")
        let identity = ModelIdentity(model: layout.model)
        _ = try SeedInstaller(seedPath: seed, storePath: store, model: identity).install()
        let error = #expect(throws: InstallError.self) {
            try SeedInstaller(seedPath: seed, storePath: store, model: identity, policy: .replaceIfNotInitialised).install()
        }
        #expect(error?.reason == .initialisationCheckUnavailable(path: store), "\(String(describing: error))")
    }

    @Test("hashes given as text: a JSON object of base64 hashes of 32 bytes, or a clear error",
          arguments: ["[]", "{}", "{\"Team\": 3}", "{\"Team\": \"AAEC\"}", "not json"])
    func badText(_ text: String) throws {
        defer { directory.remove() }
        #expect(throws: ModelIdentity.FormatError.self) { try ModelIdentity(json: Data(text.utf8)) }
    }

    @Test("the runtime product's modules do not reach libxml2 (an app on Apple platforms links it without)")
    func runtimeWithoutLibXML2() throws {
        defer { directory.remove() }
        let describe = try SeedgenTool.run(program: URL(fileURLWithPath: "/usr/bin/env"),
                                           // `--ignore-lock`: the `swift test` running this holds the package lock.
                                           ["swift", "package", "--ignore-lock", "--package-path", Corpus.packageRoot.path, "describe", "--type", "json"], timeout: 120)
        #expect(describe.status == 0, "\(describe.error)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(describe.output.utf8)) as? [String: Any])
        let targets = try #require(json["targets"] as? [[String: Any]])
        let dependencies = Dictionary(uniqueKeysWithValues: targets.map { ($0["name"] as! String, ($0["target_dependencies"] as? [String]) ?? []) })
        var reached: Set<String> = []
        var open = ["SeedRuntime"]
        while let name = open.popLast() {
            guard reached.insert(name).inserted else { continue }
            open += dependencies[name] ?? []
        }
        #expect(reached.isSuperset(of: ["SeedRuntime", "SeedStore", "SeedModel", "SeedgenSQLite"]), "\(reached)")
        #expect(!reached.contains("SeedgenLibXML2") && !reached.contains("SeedModelLoader"), "\(reached)")
        #expect(dependencies["SeedModelLoader"]?.contains("SeedgenLibXML2") == true)
    }
}
