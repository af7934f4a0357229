import Foundation
import SeedRuntime
import SeedStore
import SeedgenTestSupport
import Testing

/// Seed 004: install when missing, fill when not initialised, leave alone when initialised.
@Suite struct FirstStartTests {
    @Test func theThreeStarts() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let layout = try RuntimeFixtures.layout("EMPlan")
        let seed = directory.path("EMPlan-seed.sqlite")
        try RuntimeFixtures.emplanSeed(at: seed)
        let setup = RuntimeFixtures.seeds.appendingPathComponent("EMPlan/setup.plist").path
        let fills = Guard()
        func start(_ store: String) throws -> FirstStart.Outcome {
            try FirstStart.run(SeedInstaller(seedPath: seed, storePath: store, layout: layout)) { path in
                fills.set(true)
                try RuntimeFixtures.build(layout, at: path, inputs: [setup])
            }
        }

        // 1. No store: the seed is installed, nothing is imported.
        let fresh = directory.path("fresh/EMPlan.sqlite")
        #expect(try start(fresh) == .installedSeed)
        #expect(!fills.value)

        // 2. A store of the model that holds nothing: filled from setup.plist, the old file kept.
        // A fill folder left by a start that was killed goes away.
        let empty = directory.path("empty/EMPlan.sqlite")
        let leftover = directory.path("empty/.EMPlan.sqlite.seedgen-install-fill-999")
        try FileManager.default.createDirectory(atPath: leftover, withIntermediateDirectories: true)
        try Data("half a store".utf8).write(to: URL(fileURLWithPath: leftover + "/EMPlan.sqlite"))
        try RuntimeFixtures.build(layout, at: empty)
        guard case .filled(let backup) = try start(empty) else { Issue.record("expected a fill"); return }
        #expect(fills.value)
        #expect(!FileManager.default.fileExists(atPath: leftover))
        #expect(RuntimeFixtures.listing(directory.path("empty")).count == 3)
        #expect(try StoreConnection(path: empty, layout: layout, access: .readOnly).isInitialised())
        #expect(try StoreConnection(path: backup, layout: layout, access: .readOnly).isInitialised() == false)
        #expect(try StoreVerifier(storePath: empty, layout: layout).verify() == [])

        // 3. Initialised (and changed by the user): left exactly as it is.
        let container = try StoreContainer(storePath: fresh, layout: layout)
        _ = try container.writeAndWait { try $0.insert("Group", ["name": .text("E")]) }
        let before = RuntimeFixtures.bytes(fresh)
        fills.set(false)
        #expect(try start(fresh) == .alreadyInitialised)
        #expect(!fills.value)
        #expect(RuntimeFixtures.bytes(fresh) == before)
    }
}
