import Foundation
import SeedRuntime
import SeedStore
import SeedgenTestSupport
import Testing

/// The code examples in the runtime's reference (`SeedInstaller`, `StoreContainer`,
/// `ReadContext`, `FetchedObject`), run as written against the EM-Plan seed: an app author
/// copies them, so they must compile against the public API and do what their comments say.
@Suite("The runtime reference's examples")
struct RuntimeExampleTests {
    let directory: TemporaryDirectory
    let bundledSeed: String
    let store: String

    init() throws {
        directory = try TemporaryDirectory()
        bundledSeed = try RuntimeFixtures.bundledEMPlanSeed(in: directory)
        store = directory.path("data/emplan/EMPlan.sqlite")
    }

    @Test("SeedInstaller: install under .update, then the report; a second start finds the store")
    func installer() throws {
        defer { directory.remove() }
        let layout = try StoreLayout(modelCarriedBy: bundledSeed)
        let installer = SeedInstaller(seedPath: bundledSeed, storePath: store, layout: layout, policy: .update)
        var actions: [InstallReport.Action] = []
        for _ in 0..<2 {
            do {
                let report = try installer.install()
                actions.append(report.action)
            } catch {
                switch error.reason {
                case .storeInUse: Issue.record("nothing else has the store open")
                default: Issue.record("\(error)")
                }
            }
        }
        #expect(actions == [.installed, .alreadyPresent])
    }

    @Test("StoreContainer: open, initialisation check, a write block's result, an enqueued delete")
    func container() throws {
        defer { directory.remove() }
        let layout = try StoreLayout(modelCarriedBy: bundledSeed)
        try SeedInstaller(seedPath: bundledSeed, storePath: store, layout: layout).install()
        let container = try StoreContainer(storePath: store, layout: layout)
        #expect(try container.isInitialised())
        let atlantis = try container.writeAndWait { writer in
            let team = try writer.insert("Team", ["name": .text("Atlantis")])
            try writer.relate(team, "coach", to: try writer.insert("Coach", ["name": .text("Meer")]))
            return team
        }
        #expect(try container.viewContext.count("Coach", where: "team.name == 'Atlantis'") == 1)
        container.enqueue { writer in try writer.delete(atlantis) }
        container.waitForWrites()
        #expect(try container.viewContext.count("Team", where: "name == 'Atlantis'") == 0)
        #expect(try container.viewContext.count("Coach", where: "name == 'Meer'") == 0, "the coach goes with its team (Cascade)")
    }

    @Test("ReadContext: fetch with a variable, sort and limit; count through a to-one; a FetchRequest of its own")
    func readContext() throws {
        defer { directory.remove() }
        let layout = try StoreLayout(modelCarriedBy: bundledSeed)
        try SeedInstaller(seedPath: bundledSeed, storePath: store, layout: layout).install()
        let container = try StoreContainer(storePath: store, layout: layout)
        let context = container.viewContext
        let groupB = try context.fetch("Team", where: "group.name == $G", variables: ["G": .text("B")],
                                       sortedBy: [.init("name")], limit: 10)
        let squad = try context.count("Player", where: "team.name == 'Deutschland'")
        let request = FetchRequest(entity: "Match", predicate: try FetchPredicate(parsing: "city == 'Warsaw'"),
                                   sortKeys: [.init("date", ascending: false)])
        let latest = try context.fetch(request).first
        #expect(groupB.map { $0.string("name") } == ["Deutschland", "Dänemark", "Niederlande", "Portugal"])
        #expect(squad > 11)
        let warsaw = try context.fetch("Match", where: "city == 'Warsaw'").compactMap { $0.date("date") }
        #expect(latest?.date("date") == warsaw.max())
    }

    @Test("FetchedObject: typed values by name, a to-one as its destination's key, an update by objectID")
    func fetchedObject() throws {
        defer { directory.remove() }
        let layout = try StoreLayout(modelCarriedBy: bundledSeed)
        try SeedInstaller(seedPath: bundledSeed, storePath: store, layout: layout).install()
        let container = try StoreContainer(storePath: store, layout: layout)
        let germany = try container.viewContext.fetch("Team", where: "name == 'Deutschland'")[0]
        let name = germany.string("name")
        let group = germany["group"]
        let match = try container.viewContext.fetch("Match", sortedBy: [.init("date")], limit: 1)[0]
        let kickOff = match.date("date")
        let goals = match.integer("scoreHome")
        try container.writeAndWait { writer in try writer.update(germany.objectID, ["name": .text("Germany")]) }
        #expect(name == "Deutschland")
        #expect(group == .text("B"))
        #expect(kickOff == ISO8601DateFormatter().date(from: "2012-06-08T16:00:00Z"))
        #expect(goals == 1)
        #expect(try container.viewContext.fetch("Team", where: "name == 'Germany'").map(\.primaryKey) == [germany.primaryKey])
    }
}
