import Foundation
import SeedModel
import SeedRuntime
import SeedStore
import SeedgenTestSupport
import Testing

@Suite struct StoreContainerTests {
    let directory: TemporaryDirectory
    let layout: StoreLayout
    let store: String

    init() throws {
        directory = try TemporaryDirectory()
        layout = try RuntimeFixtures.layout("EMPlan")
        store = directory.path("EMPlan.sqlite")
        try RuntimeFixtures.emplanSeed(at: store)
    }

    func verify() throws -> [Finding] {
        try StoreVerifier(storePath: store, layout: layout).verify()
    }

    func rows(_ sql: String) throws -> [String] {
        try SQLiteShell.rows(store, sql)
    }

    /// A sequence of inserts, updates, relationship changes and deletes keeps the store as
    /// Core Data would: Z_OPT, Z_MAX, both sides of every relationship, delete rules.
    @Test func writesKeepTheStoreVerifiable() throws {
        defer { directory.remove() }
        let container = try StoreContainer(storePath: store, layout: layout)
        let context = container.viewContext
        let germany = try context.fetch("Team", where: "name == 'Deutschland'")[0].objectID
        let maxBefore = try rows("SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_NAME = 'Human'")
        let optBefore = try rows("SELECT Z_OPT FROM ZTEAM WHERE Z_PK = \(germany.primaryKey)")

        // A new team with a coach (one-to-one) and two players (to-many with a to-one inverse).
        let (atlantis, coach, players) = try container.writeAndWait { writer in
            let team = try writer.insert("Team", ["name": .text("Atlantis")])
            let coach = try writer.insert("Coach", ["givenname": .text("Poseidon"), "name": .text("Meer")])
            try writer.relate(team, "coach", to: coach)
            let players = try (1...2).map { number in
                let player = try writer.insert("Player", ["name": .text("Fisch \(number)"), "number": .integer(Int64(number))])
                try writer.add(team, "players", player)
                return player
            }
            return (team, coach, players)
        }
        #expect(try verify() == [])
        #expect(try context.count("Player", where: "team.name == 'Atlantis'") == 2)
        #expect(try context.fetch("Coach", where: "team.name == 'Atlantis'").map(\.objectID) == [coach])
        #expect(try rows("SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_NAME = 'Human'") != maxBefore)
        #expect(try rows("SELECT MAX(Z_PK) FROM ZHUMAN") == rows("SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_NAME = 'Human'"))

        // The coach moves to Germany: Atlantis loses it, Germany's old coach loses its team.
        let oldCoach = try context.fetch("Coach", where: "team.name == 'Deutschland'")[0].objectID
        try container.writeAndWait { try $0.relate(coach, "team", to: germany) }
        #expect(try rows("SELECT ZCOACH FROM ZTEAM WHERE Z_PK = \(atlantis.primaryKey)") == [""])
        #expect(try rows("SELECT ZCOACH FROM ZTEAM WHERE Z_PK = \(germany.primaryKey)") == ["\(coach.primaryKey)"])
        #expect(try rows("SELECT ZTEAM FROM ZHUMAN WHERE Z_PK = \(oldCoach.primaryKey)") == [""])
        #expect(try rows("SELECT Z_OPT FROM ZTEAM WHERE Z_PK = \(germany.primaryKey)") == ["\((Int(optBefore[0]) ?? 0) + 1)"])
        #expect(try verify() == [])

        // Remove one player, update the other, then delete the team: Cascade takes the player.
        try container.writeAndWait { writer in
            try writer.remove(atlantis, "players", players[0])
            try writer.update(players[1], ["club": .text("Tiefsee FC")])
        }
        #expect(try rows("SELECT ZTEAM, Z_OPT FROM ZHUMAN WHERE Z_PK = \(players[0].primaryKey)") == ["|2"])
        try container.writeAndWait { try $0.delete(atlantis) }
        #expect(try context.count("Team", where: "name == 'Atlantis'") == 0)
        #expect(try context.count("Player", where: "name == 'Fisch 2'") == 0)
        #expect(try context.count("Player", where: "name == 'Fisch 1'") == 1)
        #expect(try verify() == [])

        // Deleting a team nullifies its matches' home/guest and cascades to coach and players.
        try container.writeAndWait { try $0.delete(germany) }
        #expect(try context.count("Match", where: "home.name == 'Deutschland' OR guest.name == 'Deutschland'") == 0)
        #expect(try context.count("Coach", where: "givenname == 'Poseidon'") == 0)
        #expect(try verify() == [])

        // The store is no longer its seed: the digest and seal made way for the seed's digest.
        let metadata = try StoreConnection.metadata(ofStoreAt: store)
        #expect(metadata.contentDigest == nil && metadata.seal == nil && metadata.seedDigest != nil)
    }

    @Test func aFailingBlockWritesNothing() throws {
        defer { directory.remove() }
        let before = RuntimeFixtures.bytes(store)
        let container = try StoreContainer(storePath: store, layout: layout)
        let cases: [(String, WriteError.Reason?, @Sendable (ObjectWriter) throws -> Void)] = [
            ("required attribute 'name' has no value", nil, { try $0.insert("Team") }),
            ("abstract entity 'Human'", .abstractEntity("Human"), { try $0.insert("Human", ["name": .text("x")]) }),
            ("no attribute 'nam'", .unknownProperty(entity: "Team", property: "nam"), { try $0.insert("Team", ["nam": .text("x")]) }),
            ("does not fit", .invalidValue(entity: "Match", attribute: "number"), { try $0.insert("Match", ["number": .integer(70_000)]) }),
            ("no Team #9999", .noSuchObject(ObjectID(entity: "Team", primaryKey: 9999)),
             { try $0.update(ObjectID(entity: "Team", primaryKey: 9999), ["name": .text("x")]) }),
            ("is a relationship", .wrongKindOfProperty(entity: "Team", property: "players"),
             { try $0.insert("Team", ["name": .text("y"), "players": .integer(1)]) }),
        ]
        for (message, reason, block) in cases {
            let error = #expect(throws: WriteError.self) {
                try container.writeAndWait { writer in
                    try writer.insert("Group", ["name": .text("Z")])
                    try block(writer)
                }
            }
            #expect("\(error!)".contains(message), "\(error!)")
            if let reason {
                #expect(error?.reason == reason, "\(String(describing: error?.reason))")
            } else if case .missingValue(let object, "name") = error?.reason {
                #expect(object.entity == "Team")
            } else {
                Issue.record("expected .missingValue, got \(String(describing: error?.reason))")
            }
        }
        #expect(RuntimeFixtures.bytes(store) == before)
    }

    @Test func enqueuedBlocksRunInOrderAsTransactions() async throws {
        defer { directory.remove() }
        let container = try StoreContainer(storePath: store, layout: layout)
        for number in 1...20 {
            container.enqueue { writer in
                try writer.insert("Group", ["name": .text("G\(number)")])
            }
        }
        let failed = Guard()
        container.enqueue({ _ in throw WriteErrorForTest() }, completion: { failed.set($0 != nil) })
        let count = try await container.write { writer in
            try writer.insert("Group", ["name": .text("last")]).primaryKey
        }
        #expect(failed.value)
        #expect(try container.viewContext.count("Group") == 4 + 21)
        let names = try container.viewContext.fetch("Group", where: "name BEGINSWITH 'G' OR name == 'last'").compactMap { $0.string("name") }
        #expect(names == (1...20).map { "G\($0)" } + ["last"])
        #expect(count == 4 + 21)
        #expect(try verify() == [])
    }
}

struct WriteErrorForTest: Error {}

/// A flag set from another thread.
final class Guard: @unchecked Sendable {
    private let lock = NSLock()
    private var flag = false
    var value: Bool { lock.withLock { flag } }
    func set(_ value: Bool) { lock.withLock { flag = value } }
}
