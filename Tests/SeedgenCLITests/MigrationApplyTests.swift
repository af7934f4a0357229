import Foundation
import SeedgenTestSupport
import Testing

/// `seedgen migrate` carried out: a store of `ClubModels` v1 migrated in place to v3, and what
/// it refuses with the store's bytes unchanged.
@Suite("seedgen migrate, carried out")
struct MigrationApplyTests {
    typealias Setup = MigrateCommandTests

    static let data = """
        <Seed><Club name="Linz" city="Linz" founded="1901"><Person name="Ann" nickname="A"/><Person name="Cy"/></Club>\
        <Club name="Wels"><Person name="Di"/></Club><Person name="Bob"/><Referee name="R"/></Seed>
        """

    /// The files in the store's directory but the bundle and the seed.
    static func leftBeside(_ directory: TemporaryDirectory) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory.path("")).filter { !["Club.xcdatamodeld", "Seed.xml"].contains($0) }.sorted()
    }

    @Test("v1 → v3 in place: renamed, removed, filled and ordered as the plan says; verify clean; a second run finds it current and writes nothing")
    func migratesInPlace() throws {
        let (directory, bundle, store) = try Setup.setUp(data: Self.data)
        defer { directory.remove() }
        let result = try SeedgenTool.run(["migrate", store, "--model", bundle])
        #expect(result.status == 0 && result.output.contains("migrated: 6 rows carried over"), "\(result.output)\(result.error)")
        #expect(try SQLiteShell.rows(store, "PRAGMA integrity_check") == ["ok"])
        #expect(try Self.leftBeside(directory) == ["v1.sqlite"])
        let verify = try SeedgenTool.run(["verify", store, "--model", bundle + "/Club 3.xcdatamodel"])
        #expect(verify.status == 0, "\(verify.output)")
        let dump = try SeedgenTool.run(["dump", store, "--model", bundle + "/Club 3.xcdatamodel"])
        for line in [##"<Person seedgen:id="#Person-1" handle="A" name="Ann" rating="3"/>"##, ##"<Person seedgen:id="#Person-4" name="Bob" rating="3"/>"##,
                     ##"<Side seedgen:id="#Side-1" founded="1901" name="Linz" seedgen:members="#Person-1 #Person-2"/>"##,
                     ##"<Side seedgen:id="#Side-2" founded="1900" name="Wels" seedgen:members="#Person-3"/>"##] {
            #expect(dump.output.contains(line), "\(line) in:\n\(dump.output)")
        }
        #expect(!dump.output.contains("Referee") && !dump.output.contains("city"))
        // Object IDs stay: Z_PK kept, Z_MAX never lower; entity numbers those of a fresh v3 store;
        // Side, renamed from Club, keeps the name its row held, as Core Data leaves it.
        #expect(try SQLiteShell.rows(store, "SELECT Z_ENT, Z_NAME, Z_MAX FROM Z_PRIMARYKEY") == ["1|Person|4", "2|Club|2", "3|Stadium|0"])
        let bytes = try Setup.bytes(store)
        let again = try SeedgenTool.run(["migrate", store, "--model", bundle])
        #expect(again.status == 0 && again.output.contains("the store is at the current version: nothing to migrate"), "\(again.output)")
        #expect(try Setup.bytes(store) == bytes)
    }

    @Test("a WAL store stays in WAL mode; Z_MAX above the highest Z_PK is kept; an app's metadata key and the UUID are kept; --json reports it")
    func keepsWhatTheStoreHad() throws {
        let (directory, bundle, store) = try Setup.setUp(data: Self.data)
        defer { directory.remove() }
        try SQLiteShell.execute("PRAGMA journal_mode = WAL; UPDATE Z_PRIMARYKEY SET Z_MAX = 40 WHERE Z_NAME = 'Person'", on: store)
        let uuid = try SQLiteShell.rows(store, "SELECT Z_UUID FROM Z_METADATA")
        let result = try SeedgenTool.run(["migrate", store, "--model", bundle, "--json"])
        let report = try #require(try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
        #expect(result.status == 0 && report["migrated"] as? Bool == true && report["rowsCarried"] as? Int == 6, "\(result.output)")
        // Person's table is rebuilt (a rating added); its index of clubs holds the same entries.
        #expect(report["indexesTakenOver"] as? [String] == ["ZPERSON_ZCLUB_INDEX"], "\(result.output)")
        #expect(Array(try Data(contentsOf: URL(fileURLWithPath: store))[18...19]) == [2, 2], "WAL mode kept")
        #expect(try SQLiteShell.rows(store, "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_NAME = 'Person'") == ["40"])
        #expect(try SQLiteShell.rows(store, "SELECT Z_UUID FROM Z_METADATA") == uuid)
        #expect(try SeedgenTool.run(["verify", store, "--model", bundle + "/Club 3.xcdatamodel"]).status == 0)
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

    @Test("refused (exit 1, named): Core Data's refusals, triggers, persistent history, tables, columns and rows no entity describes, a to-many made to-one over several links; the store's bytes unchanged, nothing beside it",
          arguments: 0..<refusals.count)
    func refusalChangesNothing(_ index: Int) throws {
        let refusal = Self.refusals[index]
        let (directory, bundle, store) = try Setup.setUp(data: Self.data, current: refusal.current ?? ClubModels.v3)
        defer { directory.remove() }
        try SQLiteShell.execute(refusal.setup, on: store)
        let bytes = try Setup.bytes(store)
        let result = try SeedgenTool.run(["migrate", store, "--model", bundle])
        #expect(result.status == 1 && (result.output + result.error).contains(refusal.message), "\(result.output)\(result.error)")
        #expect(try Setup.bytes(store) == bytes)
        #expect(try Self.leftBeside(directory) == ["v1.sqlite"])
    }

    @Test("two processes migrating one store at once: it is migrated once, both exit 0, it verifies clean")
    func twoAtOnce() async throws {
        let (directory, bundle, store) = try Setup.setUp(data: Self.data)
        defer { directory.remove() }
        async let first = Task.detached { try SeedgenTool.run(["migrate", store, "--model", bundle]) }.value
        async let second = Task.detached { try SeedgenTool.run(["migrate", store, "--model", bundle]) }.value
        let results = try await [first, second]
        #expect(results.allSatisfy { $0.status == 0 }, "\(results.map(\.error))")
        #expect(results.filter { $0.output.contains("migrated: 6 rows carried over") }.count == 1, "\(results.map(\.output))")
        #expect(try SeedgenTool.run(["verify", store, "--model", bundle + "/Club 3.xcdatamodel"]).status == 0)
        #expect(try SQLiteShell.rows(store, "SELECT COUNT(*) FROM ZPERSON") == ["4"])
    }
}
