import Foundation
import SeedModel
import SeedModelLoader
import SeedStore
import SeedgenTestSupport
import Testing
@testable import SeedEvolution

/// The engines called as an app or the command line calls them, on stores the `seedgen` tool
/// builds for the tests: what a test of this target asserts is the engine's own result.
enum Engines {
    /// Migrates the store at `store` to the current version of the bundle at `bundle`.
    @discardableResult
    static func migrate(_ store: String, bundle: String) throws -> StoreMigrator.Report {
        try StoreMigrator(storeAt: store, versions: try ModelLoader.loadVersions(from: bundle)).migrate()
    }

    /// Brings the seed at `seed` into the store at `store`: of the current version of the bundle
    /// `bundle` when given (a store of an older one migrated first), else of the model the seed
    /// carries.
    @discardableResult
    static func update(_ store: String, seed: String, bundle: String? = nil) throws -> SeedUpdateReport {
        if let bundle {
            return try SeedUpdater(storeAt: store, seedAt: seed, versions: try ModelLoader.loadVersions(from: bundle)).update()
        }
        let model = try #require(try SeedRecord.carriedModel(at: seed))
        return try SeedUpdater(storeAt: store, seedAt: seed, layout: try StoreLayout(model: model)).update()
    }

    /// What `verify` finds wrong with the store at `store` against the model at `model` (a
    /// `.xcdatamodel`), else the model the store carries; notes left out.
    static func findings(_ store: String, model: String? = nil) throws -> [String] {
        let layout = try model.map { try StoreLayout(model: try ModelLoader.load(from: $0)) } ?? StoreLayout(model: try #require(try SeedRecord.carriedModel(at: store)))
        return try StoreVerifier(storePath: store, layout: layout).verify().filter { !$0.isNote }.map { "\($0)" }
    }

    /// The store's entity XML, as `seedgen dump` writes it against the model at `model`: its
    /// element lines, trimmed.
    static func dumpLines(_ store: String, model: String) throws -> [String] {
        let dump = try SeedgenTool.run(["dump", store, "--model", model])
        guard dump.status == 0 else { throw FixtureError(dump.error) }
        return dump.output.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { $0.hasPrefix("<") && !$0.hasPrefix("<?") && !$0.hasPrefix("<!") }
    }
}
