import Foundation
import SeedModel
import SeedModelLoader
import SeedgenTestSupport
import Testing
@testable import SeedEvolution
import SeedStore

/// Migration of the stores Core Data wrote (every framework era of the corpus): each to a
/// version of its own model with an attribute added, as an app's next release would.
@Suite("Migration of real stores", corpusTrait)
struct CorpusMigrationTests {
    /// The corpus store's model (version `A`) and `A` with an Integer 32 attribute with a
    /// default added to its first entity and an entity added that is numbered first, so that
    /// every other entity's number moves (version `B`, current), as a bundle in `directory`.
    static func bundle(for store: Corpus.Store, in directory: TemporaryDirectory) throws -> ModelVersions {
        let contents = try String(contentsOf: store.model, encoding: .utf8)
        let entity = try #require(contents.range(of: #"<entity\b[^>]*[^/]>"#, options: .regularExpression))
        var added = contents.replacingCharacters(in: entity.upperBound..<entity.upperBound, with: """

            <attribute name="seedgenAdded" optional="YES" attributeType="Integer 32" defaultValueString="1" usesScalarValueType="YES"/>
            """)
        let first = try #require(added.range(of: "<entity "))
        added.insert(contentsOf: "<entity name=\"AAASeedgenAdded\"><attribute name=\"note\" optional=\"YES\" attributeType=\"String\"/></entity>\n", at: first.lowerBound)
        _ = try directory.write(contents, to: "M.xcdatamodeld/A.xcdatamodel/contents")
        _ = try directory.write(added, to: "M.xcdatamodeld/B.xcdatamodel/contents")
        _ = try directory.write("""
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict><key>_XCCurrentVersionName</key><string>B.xcdatamodel</string></dict></plist>
            """, to: "M.xcdatamodeld/.xccurrentversion")
        return try ModelLoader.loadVersions(from: directory.path("M.xcdatamodeld"))
    }

    /// What a migration must keep: rows per entity, `Z_MAX` per entity, the UUID, every
    /// metadata key but the version's, the journal mode.
    struct Kept: Equatable {
        var rows: [String: Int64]
        var maxima: [String: Int64]
        var uuid: String?
        var metadata: [String: String]
        /// The header's file format versions: 2 and 2 for WAL, 1 and 1 for a rollback journal.
        var journalMode: [UInt8]

        init(_ path: String) throws {
            let database = try Database(path: path, mode: .readOnly, immutable: true)
            var rows: [String: Int64] = [:], maxima: [String: Int64] = [:]
            for row in try database.rows("SELECT Z_ENT, Z_NAME, Z_MAX FROM Z_PRIMARYKEY") {
                let name = row[1].text ?? ""
                maxima[name] = row[2].integer ?? 0
                let table = try StoreFile.tables(for: StoreFile(path: path, database: database).primaryKeyRows())[Int(row[0].integer ?? 0)] ?? ""
                rows[name] = try database.scalar("SELECT COUNT(*) FROM \(Database.quote(table)) WHERE Z_ENT = ?", [row[0]])?.integer ?? 0
            }
            self.rows = rows
            self.maxima = maxima
            let metadataRow = try #require(try database.metadataRow())
            uuid = metadataRow.uuid
            let versionKeys: Set<String> = ["NSStoreModelVersionHashes", "NSStoreModelVersionIdentifiers", "NSStoreModelVersionHashesDigest", "NSStoreModelVersionChecksumKey"]
            metadata = try StoreMetadata(decoding: try #require(metadataRow.plist)).values.filter { !versionKeys.contains($0.key) }
            journalMode = Array(StoreFile.header(of: path)[18...19])
        }
    }

    /// Each table's root page.
    static func rootPages(_ path: String) throws -> [String: Int64] {
        let rows = try Database(path: path, mode: .readOnly, immutable: true).rows("SELECT name, rootpage FROM sqlite_master WHERE type = 'table'")
        return Dictionary(rows.map { ($0[0].text ?? "", $0[1].integer ?? 0) }, uniquingKeysWith: { first, _ in first })
    }

    /// Read as immutable (nothing beside the file), so the migrator alone must leave nothing there.
    @Test("each corpus store migrates to its model with an attribute and an entity added: verify clean; rows, Z_MAX, UUID, metadata keys, journal mode and unchanged tables kept",
          arguments: Corpus.allStores.filter { $0.name != "recipes" })
    func corpusStoreMigrates(_ store: Corpus.Store) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let versions = try Self.bundle(for: store, in: directory)
        let path = try directory.copy(store.store)
        let before = try Kept(path)
        let rootPages = try Self.rootPages(path)
        let report = try StoreMigrator(storeAt: path, versions: versions).migrate()
        #expect(report.migrated && report.plan.sourceVersion == "A")
        var after = try Kept(path)
        #expect(after.rows.removeValue(forKey: "AAASeedgenAdded") == 0 && after.maxima.removeValue(forKey: "AAASeedgenAdded") == 0)
        #expect(after == before)
        let layout = try StoreLayout(model: versions.current.model)
        let findings = try StoreVerifier(storePath: path, layout: layout).verify().filter { !$0.isNote }
        #expect(findings.isEmpty, "\(findings)")
        // The added attribute holds its default in every row of its entity.
        let entity = try #require(versions.current.model.entities.first { $0.attribute(named: "seedgenAdded") != nil })
        let table = try #require(layout.entity(named: entity.name)?.table)
        let database = try Database(path: path, mode: .readOnly, immutable: true)
        // Every index, those that took over a source index's entries included, holds its rows.
        #expect(try database.rows("PRAGMA integrity_check").map { $0[0].text ?? "" } == ["ok"], "indexes taken over: \(report.indexesTakenOver)")
        #expect(try database.scalar("SELECT COUNT(*) FROM \(table) WHERE Z_ENT = ? AND ZSEEDGENADDED IS NOT 1",
                                    [.integer(Int64(try #require(layout.entity(named: entity.name)).number))])?.integer == 0)
        // Tables the new version has unchanged are kept, not rebuilt (their entity numbers rewritten).
        let keptTables = try Self.rootPages(path).filter { rootPages[$0.key] == $0.value }
        #expect(!keptTables.isEmpty || rootPages.count <= 4, "every table was rebuilt")
        let left = try FileManager.default.contentsOfDirectory(atPath: directory.path("")).sorted()
        #expect(left == ["M.xcdatamodeld", store.fileName], "\(left)")
    }

    /// The recipes store records hashes its model beside it does not give (an older version's):
    /// no version of the bundle is the store's, and the error names the entities.
    /// The facts of Core Data's own migration of this store to CoreDataPlus's next model
    /// version (alemar11/CoreDataPlus @ f71b5f5, `Tests/Resources/SampleModel/Fixtures/SampleModel_V2.sqlite`,
    /// migrated by Core Data from the corpus's V1 store; not copied here): its schema, and
    /// `Z_PRIMARYKEY` keeping the renamed entity's old name.
    static let coreDataV2Schema = [
        "CREATE INDEX ZCAR_ZOWNER_INDEX ON ZCAR (ZOWNER)",
        "CREATE INDEX ZCAR_Z_ENT_INDEX ON ZCAR (Z_ENT)",
        "CREATE INDEX Z_Car_byMakerAndNumberPlate ON ZCAR (ZMAKER COLLATE BINARY ASC, ZNUMBERPLATE COLLATE BINARY ASC)",
        "CREATE TABLE ZCAR ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZOWNER INTEGER, ZISLIMITEDEDITION INTEGER, ZMARKEDFORDELETIONASOF TIMESTAMP, ZMAKER VARCHAR, ZMODEL VARCHAR, ZNUMBERPLATE VARCHAR )",
        "CREATE TABLE ZPERSON ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZUPDATEDAT TIMESTAMP, ZFIRSTNAME VARCHAR, ZLASTNAME VARCHAR )",
        "CREATE UNIQUE INDEX Z_Car_UNIQUE_numberPlate ON ZCAR (ZNUMBERPLATE COLLATE BINARY ASC)",
        "CREATE UNIQUE INDEX Z_Person_UNIQUE_firstName_lastName ON ZPERSON (ZFIRSTNAME COLLATE BINARY ASC, ZLASTNAME COLLATE BINARY ASC)",
    ]
    static let coreDataV2PrimaryKeys = ["1|Car|0|125", "2|SportCar|1|0", "3|ExpensiveSportCar|2|0", "4|Person|0|20"]

    @Test("CoreDataPlus V1 → its V2 (ExpensiveSportCar renamed LuxuryCar by renaming identifier, color and id removed, a fetch index added): the schema and Z_PRIMARYKEY Core Data's own migration left, the old name kept (was: LuxuryCar)",
          .enabled(if: Corpus.stores.contains { $0.name == "coredataplus" }))
    func coreDataPlusAsCoreDataMigratesIt() throws {
        let store = try #require(Corpus.stores.first { $0.name == "coredataplus" })
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let v1 = try String(contentsOf: store.model, encoding: .utf8)
        // SampleModel2 as CoreDataPlus declares it, from the corpus's SampleModel.
        let v2 = v1
            .replacingOccurrences(of: #"<attribute name="color" optional="YES" attributeType="Transformable" valueTransformerName="ColorTransformer"/>"#, with: "")
            .replacingOccurrences(of: #"<entity name="ExpensiveSportCar" representedClassName="ExpensiveSportCar""#,
                                  with: #"<entity name="LuxuryCar" representedClassName="LuxuryCar" elementID="ExpensiveSportCar""#)
            .replacingOccurrences(of: #"<attribute name="id" attributeType="UUID" usesScalarValueType="NO" preserveAfterDeletion="YES"/>"#, with: "")
            .replacingOccurrences(of: #"<element name="ExpensiveSportCar""#, with: #"<element name="LuxuryCar""#)
        let indexed = try #require(v2.range(of: #"<relationship name="owner""#))
        let withIndex = v2.replacingCharacters(in: indexed.lowerBound..<indexed.lowerBound, with: """
            <fetchIndex name="byMakerAndNumberPlate"><fetchIndexElement property="maker" type="Binary" order="ascending"/><fetchIndexElement property="numberPlate" type="Binary" order="ascending"/></fetchIndex>
            """)
        #expect(withIndex != v1 && withIndex.contains("LuxuryCar") && !withIndex.contains(#"name="color""#) && !withIndex.contains(#"name="id""#))
        _ = try directory.write(v1, to: "M.xcdatamodeld/SampleModel.xcdatamodel/contents")
        _ = try directory.write(withIndex, to: "M.xcdatamodeld/SampleModel2.xcdatamodel/contents")
        _ = try directory.write("""
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict><key>_XCCurrentVersionName</key><string>SampleModel2.xcdatamodel</string></dict></plist>
            """, to: "M.xcdatamodeld/.xccurrentversion")
        let versions = try ModelLoader.loadVersions(from: directory.path("M.xcdatamodeld"))
        let copy = try directory.copy(store.store)
        let report = try StoreMigrator(storeAt: copy, versions: versions).migrate()
        #expect(report.migrated && report.assessment.removals.contains { $0.subject == .attribute(entity: "Person", name: "id") })
        let database = try Database(path: copy, mode: .readOnly, immutable: true)
        let schema = try database.rows("SELECT sql FROM sqlite_master WHERE sql IS NOT NULL AND name NOT LIKE 'Z_METADATA' AND name NOT IN ('Z_PRIMARYKEY', 'Z_MODELCACHE') ORDER BY sql")
            .compactMap { $0.first?.text }
        #expect(schema == Self.coreDataV2Schema.sorted(), "\(schema)")
        #expect(try SQLiteShell.rows(copy, "SELECT Z_ENT, Z_NAME, Z_SUPER, Z_MAX FROM Z_PRIMARYKEY ORDER BY Z_ENT") == Self.coreDataV2PrimaryKeys)
        #expect(try StoreVerifier(storePath: copy, layout: try StoreLayout(model: versions.current.model)).verify().filter { !$0.isNote }.isEmpty)
    }

    @Test("a store no version of the bundle fits: an error naming its entities, the store untouched", .enabled(if: Corpus.allStores.contains { $0.name == "recipes" }))
    func unknownVersion() throws {
        let store = try #require(Corpus.allStores.first { $0.name == "recipes" })
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let versions = try Self.bundle(for: store, in: directory)
        let path = try directory.copy(store.store)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect {
            try StoreMigrator(storeAt: path, versions: versions).migrate()
        } throws: { error in
            guard let error = error as? MigrationError, case .unknownVersion(let entities) = error.reason else { return false }
            return entities == ["Image", "Ingredient", "Recipe"] && error.description.contains("match no version")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == bytes)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path("")).sorted() == ["M.xcdatamodeld", store.fileName])
    }
}
