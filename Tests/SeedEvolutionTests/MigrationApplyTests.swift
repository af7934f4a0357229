import Foundation
import SeedModelLoader
import SeedgenTestSupport
import Testing
@testable import SeedEvolution

/// A migration carried out: a store of `ClubModels` v1 migrated in place to v3, and what it
/// refuses with the store's bytes unchanged.
@Suite("Migration carried out")
struct MigrationApplyTests {
    static func bytes(_ path: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path)) }

    static let data = ClubModels.clubsData

    static func leftBeside(_ directory: TemporaryDirectory) throws -> [String] { try ClubModels.leftBeside(directory) }

    @Test("v1 → v3 in place: renamed, removed, filled and ordered as the plan says; verify clean; a second run finds it current and writes nothing")
    func migratesInPlace() throws {
        let (directory, bundle, store) = try ClubModels.installedStore(data: Self.data)
        defer { directory.remove() }
        let report = try Engines.migrate(store, bundle: bundle)
        #expect(report.migrated && report.rowCounts.values.reduce(0, +) == 6, "\(report.rowCounts)")
        #expect(try SQLiteShell.rows(store, "PRAGMA integrity_check") == ["ok"])
        #expect(try Self.leftBeside(directory) == ["v1.sqlite"])
        #expect(try Engines.findings(store, model: bundle + "/Club 3.xcdatamodel") == [])
        let dump = try Engines.dumpLines(store, model: bundle + "/Club 3.xcdatamodel")
        for line in [##"<Person seedgen:id="#Person-1" handle="A" name="Ann" rating="3"/>"##, ##"<Person seedgen:id="#Person-4" name="Bob" rating="3"/>"##,
                     ##"<Side seedgen:id="#Side-1" founded="1901" name="Linz" seedgen:members="#Person-1 #Person-2"/>"##,
                     ##"<Side seedgen:id="#Side-2" founded="1900" name="Wels" seedgen:members="#Person-3"/>"##] {
            #expect(dump.contains(line), "\(line) in:\n\(dump)")
        }
        #expect(!dump.joined().contains("Referee") && !dump.joined().contains("city"))
        // Object IDs stay: Z_PK kept, Z_MAX never lower; entity numbers those of a fresh v3 store;
        // Side, renamed from Club, keeps the name its row held, as Core Data leaves it.
        #expect(try SQLiteShell.rows(store, "SELECT Z_ENT, Z_NAME, Z_MAX FROM Z_PRIMARYKEY") == ["1|Person|4", "2|Club|2", "3|Stadium|0"])
        let bytes = try Self.bytes(store)
        #expect(try !Engines.migrate(store, bundle: bundle).migrated)
        #expect(try Self.bytes(store) == bytes)
    }

    @Test("the plan is inferred once for the preview, the read-only check and the run under the lock, and is the one the report carries")
    func planInferredOnce() throws {
        let (directory, bundle, store) = try ClubModels.installedStore(data: Self.data)
        defer { directory.remove() }
        let migrator = StoreMigrator(storeAt: store, versions: try ModelLoader.loadVersions(from: bundle))
        let preview = try migrator.plan(countingRemovals: false).plan
        #expect(try migrator.check().entities.map(\.name) == preview.entities.map(\.name))
        let report = try migrator.migrate()
        #expect(report.migrated && report.plan.entities.map(\.name) == preview.entities.map(\.name) && report.plan.sourceVersion == "Club")
        #expect(migrator.plans.inferred == 1, "inferred \(migrator.plans.inferred) times")
    }

    @Test("a WAL store stays in WAL mode; Z_MAX above the highest Z_PK is kept; an app's metadata key and the UUID are kept; --json reports it")
    func keepsWhatTheStoreHad() throws {
        let (directory, bundle, store) = try ClubModels.installedStore(data: Self.data)
        defer { directory.remove() }
        try SQLiteShell.execute("PRAGMA journal_mode = WAL; UPDATE Z_PRIMARYKEY SET Z_MAX = 40 WHERE Z_NAME = 'Person'", on: store)
        let uuid = try SQLiteShell.rows(store, "SELECT Z_UUID FROM Z_METADATA")
        let report = try Engines.migrate(store, bundle: bundle)
        #expect(report.migrated && report.rowCounts.values.reduce(0, +) == 6, "\(report.rowCounts)")
        // Person's table is rebuilt (a rating added); its index of clubs holds the same entries.
        #expect(report.indexesTakenOver == ["ZPERSON_ZCLUB_INDEX"], "\(report.indexesTakenOver)")
        #expect(Array(try Data(contentsOf: URL(fileURLWithPath: store))[18...19]) == [2, 2], "WAL mode kept")
        #expect(try SQLiteShell.rows(store, "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_NAME = 'Person'") == ["40"])
        #expect(try SQLiteShell.rows(store, "SELECT Z_UUID FROM Z_METADATA") == uuid)
        #expect(try Engines.findings(store, model: bundle + "/Club 3.xcdatamodel") == [])
    }

    /// Changes to v1 stores that make the migration impossible, each with what the error says.
    static let refusals: [(setup: String, current: String?, message: String)] = [
        ("CREATE TRIGGER touch AFTER INSERT ON ZPERSON BEGIN SELECT 1; END", nil, "holds the trigger touch"),
        ("CREATE TABLE ATRANSACTION (Z_PK INTEGER PRIMARY KEY)", nil, "holds Core Data's persistent history (table ATRANSACTION)"),
        ("CREATE TABLE ZNOTES (Z_PK INTEGER PRIMARY KEY)", nil, "holds the table ZNOTES, which the store's model version does not describe"),
        ("ALTER TABLE ZPERSON ADD COLUMN ZSECRET VARCHAR", nil, "holds the column ZPERSON.ZSECRET"),
        // Its copy takes each entity's rows by Z_ENT: this row would have been left behind.
        ("INSERT INTO ZPERSON (Z_PK, Z_ENT, Z_OPT, ZNAME) VALUES (99, 7, 1, 'lost')", nil,
         "holds a row of ZPERSON (Z_PK 99) whose Z_ENT 7 is no entity of that table"),
        ("SELECT 1", ClubModels.contents(ClubModels.v3Entities(person: """
            <attribute name="handle" optional="YES" attributeType="String" elementID="nickname"/>
            <attribute name="name" attributeType="String"/>
            <attribute name="rank" attributeType="Integer 16" usesScalarValueType="YES"/>
            <attribute name="rating" optional="YES" attributeType="Integer 32" defaultValueString="3" usesScalarValueType="YES"/>
            <relationship name="club" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Side" inverseName="members" inverseEntity="Side"/>
            """)), "Person.rank: a required attribute without a default is added"),
        ("SELECT 1", ClubModels.contents(ClubModels.v3Entities(person: """
            <attribute name="handle" optional="YES" attributeType="String" elementID="nickname"/>
            <attribute name="name" attributeType="String"/>
            <attribute name="rating" optional="YES" attributeType="Integer 32" defaultValueString="3" usesScalarValueType="YES"/>
            <relationship name="club" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Side" inverseName="members" inverseEntity="Side"/>
            """, side: """
            <attribute name="area" optional="YES" attributeType="String"/>
            <attribute name="founded" attributeType="Integer 16" defaultValueString="1900" usesScalarValueType="YES"/>
            <attribute name="name" attributeType="String"/>
            <relationship name="members" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Person" inverseName="club" inverseEntity="Person"/>
            """)), "Side.members changes to-many → to-one, and the Club object with Z_PK 1 holds 2 links"),
    ]

    @Test("refused, named: Core Data's refusals, triggers, persistent history, tables, columns and rows no entity describes, a to-many made to-one over several links; the store's bytes unchanged, nothing beside it",
          arguments: 0..<refusals.count)
    func refusalChangesNothing(_ index: Int) throws {
        let refusal = Self.refusals[index]
        let (directory, bundle, store) = try ClubModels.installedStore(data: Self.data, current: refusal.current ?? ClubModels.v3)
        defer { directory.remove() }
        try SQLiteShell.execute(refusal.setup, on: store)
        let bytes = try Self.bytes(store)
        #expect {
            try Engines.migrate(store, bundle: bundle)
        } throws: { error in
            "\(error)".contains(refusal.message)
        }
        #expect(try Self.bytes(store) == bytes)
        #expect(try Self.leftBeside(directory) == ["v1.sqlite"])
    }

    @Test("two migrators of one store at once: it is migrated once, neither fails, it verifies clean")
    func twoAtOnce() async throws {
        let (directory, bundle, store) = try ClubModels.installedStore(data: Self.data)
        defer { directory.remove() }
        async let first = Task.detached { try Engines.migrate(store, bundle: bundle).migrated }.value
        async let second = Task.detached { try Engines.migrate(store, bundle: bundle).migrated }.value
        let results = try await [first, second]
        #expect(results.filter { $0 }.count == 1, "\(results)")
        #expect(try Engines.findings(store, model: bundle + "/Club 3.xcdatamodel") == [])
        #expect(try SQLiteShell.rows(store, "SELECT COUNT(*) FROM ZPERSON") == ["4"])
    }
}
