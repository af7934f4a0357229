import Foundation
import SeedModelLoader
import SeedStore
import SeedgenTestSupport
import Testing
@testable import SeedEvolution

/// What the engines refuse, by the reason an app switches on (`MigrationError.Reason`,
/// `SeedUpdateError.Reason`), what they warn of and count, and that a refusal leaves every byte
/// of the store: read from `StoreMigrator`'s and `SeedUpdater`'s reports and errors and the
/// store's rows. The words and exit statuses of `seedgen migrate` and `seedgen update` for the
/// same stores are the command line's tests (`MigrateCommandTests`, `MigrationTrustTests`,
/// `UpdateTrustTests`).
@Suite("Refusals by reason")
struct RefusalReasonTests {
    static func bytes(_ path: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path)) }

    /// The migration of `store` to `bundle`'s current version, or its error.
    static func migrate(_ store: String, bundle: String) throws -> Result<StoreMigrator.Report, MigrationError> {
        let migrator = StoreMigrator(storeAt: store, versions: try ModelLoader.loadVersions(from: bundle))
        do { return .success(try migrator.migrate()) } catch { return .failure(error) }
    }

    /// The refusals of `result`, as `reason subject: message`; empty when it migrated.
    static func refusals(_ result: Result<StoreMigrator.Report, MigrationError>) -> [String] {
        guard case .failure(let error) = result else { return [] }
        guard case .refused(let refusals) = error.reason else { return ["not refused: \(error)"] }
        return refusals.map { "\($0.reason) \($0)" }
    }

    @Test("a new uniqueness constraint the rows break: .uniquenessBroken naming the values two rows share, the store's bytes kept; distinct rows migrate")
    func uniquenessBroken() throws {
        let current = ClubModels.v3UniqueSideName
        let (directory, bundle, store) = try ClubModels.installedStore(data: #"<Seed><Club name="Linz"/><Club name="Wels"/><Club name="Linz"/></Seed>"#, current: current)
        defer { directory.remove() }
        let before = try Self.bytes(store)
        #expect(Self.refusals(try Self.migrate(store, bundle: bundle)) == [#"uniquenessBroken Side (name): the uniqueness constraint is new, and rows of the store share name "Linz" (2 rows)"#])
        #expect(try Self.bytes(store) == before)
        let (distinct, distinctBundle, distinctStore) = try ClubModels.installedStore(data: #"<Seed><Club name="Linz"/><Club name="Wels"/></Seed>"#, current: current)
        defer { distinct.remove() }
        let migrated = try Self.migrate(distinctStore, bundle: distinctBundle).get()
        #expect(migrated.migrated && migrated.rowCounts["Side"] == 2)
    }

    @Test("a required attribute added without a default, or an optional one made required, while rows hold no value: .requiredWithoutValue naming it; without such rows it migrates")
    func requiredWithoutValue() throws {
        for (current, refusedData, allowedData, refusal) in [
            (ClubModels.v3RequiredRank, #"<Seed><Person name="Ann"/></Seed>"#, #"<Seed><Club name="Linz"/></Seed>"#,
             "requiredWithoutValue Person.rank: a required attribute without a default is added, and Person has rows (Core Data's migration fails validation)"),
            (ClubModels.v3RequiredHandle, #"<Seed><Person name="Ann" nickname="A"/><Person name="Bob"/></Seed>"#, #"<Seed><Person name="Ann" nickname="A"/></Seed>"#,
             "requiredWithoutValue Person.handle: becomes required without a default, and some Person rows hold no value"),
        ] {
            let (directory, bundle, store) = try ClubModels.installedStore(data: refusedData, current: current)
            defer { directory.remove() }
            let before = try Self.bytes(store)
            let found = Self.refusals(try Self.migrate(store, bundle: bundle))
            #expect(found == [refusal], "\(found)")
            #expect(try Self.bytes(store) == before)
            let (allowed, allowedBundle, allowedStore) = try ClubModels.installedStore(data: allowedData, current: current)
            defer { allowed.remove() }
            #expect(try Self.migrate(allowedStore, bundle: allowedBundle).get().migrated, "\(refusal)")
        }
    }

    @Test("a store of no version of the bundle: .unknownVersion naming the entities whose hashes match none, the bytes kept; one at the current version: nothing migrated")
    func unknownAndCurrentVersion() throws {
        let (directory, _, store) = try ClubModels.installedStore(data: ClubModels.clubsData)
        defer { directory.remove() }
        let other = try TemporaryDirectory()
        defer { other.remove() }
        let bundle = try ClubModels.writeBundle([("Club 2", ClubModels.v2), ("Club 3", ClubModels.v3)], current: "Club 3", in: other)
        let before = try Self.bytes(store)
        guard case .failure(let error) = try Self.migrate(store, bundle: bundle), case .unknownVersion(let entities) = error.reason else {
            Issue.record("not refused as of an unknown version")
            return
        }
        #expect(entities == ["Club", "Person", "Referee"])
        #expect(try Self.bytes(store) == before)
        let current = directory.path("v3.sqlite")
        #expect(try SeedgenTool.run(["build", "--model", directory.path("Club.xcdatamodeld"), "--output", current, "--quiet"]).status == 0)
        let same = try Self.bytes(current)
        #expect(try !Self.migrate(current, bundle: directory.path("Club.xcdatamodeld")).get().migrated)
        #expect(try Self.bytes(current) == same)
    }

    @Test("a store a killed writer left a hot journal beside: the migration rolls the write back first, then migrates; the plan counts what v3 removes as the report does")
    func hotJournalAndRemovals() throws {
        let (directory, bundle, store) = try ClubModels.installedStore(data: ClubModels.clubsData)
        defer { directory.remove() }
        try SQLiteShell.interruptWrite("UPDATE ZPERSON SET ZNAME = 'half' WHERE ZNAME = 'Ann'", on: store)
        #expect(FileManager.default.fileExists(atPath: store + "-journal"))
        let migrator = StoreMigrator(storeAt: store, versions: try ModelLoader.loadVersions(from: bundle))
        try migrator.recoverInterruptedWrite()
        let planned = try migrator.plan().assessment.removals
        let report = try migrator.migrate()
        #expect(report.migrated && !FileManager.default.fileExists(atPath: store + "-journal"))
        #expect(try SQLiteShell.rows(store, "SELECT ZNAME FROM ZPERSON ORDER BY ZNAME") == ["Ann", "Bob", "Cy", "Di"], "the interrupted write rolled back")
        let expected: Set<MigrationPlan.Removal> = [.init(subject: .entity("Referee"), count: 1), .init(subject: .attribute(entity: "Club", name: "city"), count: 1)]
        #expect(Set(report.assessment.removals) == expected && Set(planned) == expected, "\(report.assessment.removals)")
    }

    @Test("a renaming identifier naming a source property whose own identifier differs: warned (.identifierNamesAnotherElement), its values not carried and counted as dropped; the identifier both share carries them")
    func identifierNamingAName() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let nickname = #"<attribute name="nickname" optional="YES" attributeType="String"/>"#
        let versions = [
            ("Club", ClubModels.v1),
            ("Club 2", ClubModels.v1.replacingOccurrences(of: nickname, with: #"<attribute name="alias" optional="YES" attributeType="String" elementID="nickname"/>"#)),
            ("Club 3", ClubModels.v1.replacingOccurrences(of: nickname, with: #"<attribute name="handle" optional="YES" attributeType="String" elementID="alias"/>"#)),
        ]
        let bundle = try ClubModels.writeBundle(versions, current: "Club 3", in: directory)
        let v2 = directory.path("v2.sqlite")
        #expect(try SeedgenTool.run(["build", "--model", bundle + "/Club 2.xcdatamodel", "--output", v2, "--quiet",
                                     try directory.write(#"<Seed><Person name="Ann" alias="A"/><Person name="Bob"/></Seed>"#, to: "Seed.xml")]).status == 0)
        let report = try Self.migrate(v2, bundle: bundle).get()
        #expect(report.assessment.warnings.map { "\($0.reason) \($0.subject)" } == ["identifierNamesAnotherElement Person.handle"])
        #expect(report.assessment.removals == [.init(subject: .attribute(entity: "Person", name: "alias"), count: 1)])
        #expect(try SQLiteShell.rows(v2, "SELECT ZNAME, IFNULL(ZHANDLE, '-') FROM ZPERSON ORDER BY ZNAME") == ["Ann|-", "Bob|-"])
        // v1 → v2 shares the identifier nickname (v1's unset: its name): carried, no warning.
        let v1 = directory.path("v1.sqlite")
        #expect(try SeedgenTool.run(["build", "--model", bundle + "/Club.xcdatamodel", "--output", v1, "--quiet",
                                     try directory.write(#"<Seed><Person name="Ann" nickname="A"/></Seed>"#, to: "Seed1.xml")]).status == 0)
        let twoVersions = try TemporaryDirectory()
        defer { twoVersions.remove() }
        let carried = try Self.migrate(v1, bundle: try ClubModels.writeBundle(Array(versions.prefix(2)), current: "Club 2", in: twoVersions)).get()
        #expect(carried.migrated && carried.assessment.warnings.isEmpty && carried.assessment.removals.isEmpty)
        #expect(try SQLiteShell.rows(v1, "SELECT ZALIAS FROM ZPERSON") == ["A"])
    }

    // MARK: - Updates

    /// Seed 1 of `ShelfModel` installed (its record packed) in `directory`.
    static func installedShelf(in directory: TemporaryDirectory) throws -> (store: String, seed1: String) {
        let seed1 = try ShelfModel.build(ShelfModel.v1, as: "v1", in: directory)
        return (try directory.install(seed1, as: "installed.sqlite"), seed1)
    }

    /// The update's error, or nil when it updated.
    static func updateError(_ make: () throws -> SeedUpdater) -> SeedUpdateError? {
        do {
            _ = try make().update()
            return nil
        } catch let error as SeedUpdateError {
            return error
        } catch {
            Issue.record("\(error)")
            return nil
        }
    }

    @Test("a seed of an unrelated model, by the models the seeds carry: .otherModelVersion, the store's bytes kept, no journal left; a missing seed: .unreadable")
    func unrelatedAndMissingSeed() throws {
        let directory = try ShelfModel.setUp()
        defer { directory.remove() }
        let (store, _) = try Self.installedShelf(in: directory)
        let (clubs, clubBundle, _) = try ClubModels.installedStore(data: ClubModels.clubsData)
        defer { clubs.remove() }
        let other = clubs.path("clubs-seed.sqlite")
        #expect(try SeedgenTool.run(["build", "--model", clubBundle + "/Club.xcdatamodel", "--output", other, "--quiet", clubs.path("Seed.xml")]).status == 0)
        let before = try Self.bytes(store)
        #expect(Self.updateError { try SeedUpdater(storeAt: store, seedAt: other) }?.reason == .otherModelVersion)
        #expect(Self.updateError { try SeedUpdater(storeAt: store, seedAt: directory.path("missing.sqlite")) }?.reason == .unreadable)
        #expect(try Self.bytes(store) == before)
        #expect(!FileManager.default.fileExists(atPath: store + "-journal"))
    }

    @Test("a store whose record was removed: .noSeedRecord before any migration, with the bundle and by the carried models alike, the bytes kept")
    func noRecordBeforeMigrating() throws {
        let directory = try ShelfModel.setUp()
        defer { directory.remove() }
        let (store, _) = try Self.installedShelf(in: directory)
        let (bundle, seed2) = try ShelfModel.bundleWithoutPrices(in: directory)
        try SQLiteShell.execute("DROP TABLE SEEDGEN_PACKED", on: store)
        let before = try Self.bytes(store)
        #expect(Self.updateError { try SeedUpdater(storeAt: store, seedAt: seed2) }?.reason == .noSeedRecord)
        #expect(Self.updateError { try SeedUpdater(storeAt: store, seedAt: seed2, versions: try ModelLoader.loadVersions(from: bundle)) }?.reason == .noSeedRecord)
        #expect(try Self.bytes(store) == before)
    }

    @Test("an update across a model change reports the version it migrated from and what the migration removed: the three prices")
    func migrationRemovalsReported() throws {
        let directory = try ShelfModel.setUp()
        defer { directory.remove() }
        let (store, _) = try Self.installedShelf(in: directory)
        let (bundle, seed2) = try ShelfModel.bundleWithoutPrices(in: directory)
        let report = try SeedUpdater(storeAt: store, seedAt: seed2, versions: try ModelLoader.loadVersions(from: bundle)).update()
        #expect(report.updated && report.migratedFrom == "Shelf")
        #expect(report.migrationRemovals == [.init(subject: .attribute(entity: "Book", name: "price"), count: 3)])
        let pages = try SQLiteShell.rows(store, "SELECT ZISBN, IFNULL(ZPAGES, '-') FROM ZBOOK ORDER BY ZISBN")
        #expect(pages == ["1|100", "2|100", "4|100"], "\(pages)")
    }

    @Test("two objects recorded under one key: .damaged, naming both Z_PKs and the record's table, the bytes kept (was: SQLite's constraint error on a TEMP table)")
    func duplicateRecordedKey() throws {
        let directory = try ShelfModel.setUp()
        defer { directory.remove() }
        let (store, _) = try Self.installedShelf(in: directory)
        let seed2 = try ShelfModel.build(ShelfModel.v2, as: "v2", in: directory)
        try FullRecord.unpack(at: store)
        try SQLiteShell.execute("UPDATE SEEDGEN_SEEDED SET KEY = (SELECT KEY FROM SEEDGEN_SEEDED WHERE ENTITY = 2 AND PK = 1) WHERE ENTITY = 2 AND PK = 2", on: store)
        let before = try Self.bytes(store)
        let error = Self.updateError { SeedUpdater(storeAt: store, seedAt: seed2, layout: try StoreLayout(model: try ModelLoader.load(from: directory.path("Shelf.xcdatamodel")))) }
        #expect(error?.reason == .damaged)
        #expect(error?.description.contains("two Book objects (Z_PK 1 and 2) are recorded under one key") == true, "\(String(describing: error))")
        #expect(try Self.bytes(store) == before)
    }
}
