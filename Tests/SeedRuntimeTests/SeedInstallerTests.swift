import Foundation
import SeedModel
import SeedModelLoader
import SeedRuntime
import SeedStore
import SeedgenTestSupport
import SystemPackage
import Testing
#if canImport(Glibc)
import Glibc
#endif

@Suite struct SeedInstallerTests {
    let directory: TemporaryDirectory
    let layout: StoreLayout
    let seed: String

    init() throws {
        directory = try TemporaryDirectory()
        layout = try RuntimeFixtures.layout("EMPlan")
        seed = try RuntimeFixtures.bundledEMPlanSeed(in: directory)
    }

    func installer(_ store: String, seed: String? = nil, policy: SeedInstaller.Policy = .keep) -> SeedInstaller {
        SeedInstaller(seedPath: seed ?? self.seed, storePath: store, layout: layout, policy: policy)
    }

    /// Installs the seed at `data/EMPlan.sqlite` under the policy `update` (the store records its
    /// seed), then the user renames Poland Polska and does `more` (given Poland) through the
    /// runtime; the store and its container.
    func installedAndChanged(_ more: (ObjectWriter, StoreContainer, ObjectID) throws -> Void = { _, _, _ in }) throws -> (String, StoreContainer) {
        let store = directory.path("data/EMPlan.sqlite")
        #expect(try installer(store, policy: .update).install().action == .installed)
        let container = try StoreContainer(storePath: store, layout: layout)
        try container.writeAndWait { writer in
            let team = try container.viewContext.fetch("Team", where: "name == 'Polen'")[0].objectID
            try writer.update(team, ["name": .text("Polska")])
            try more(writer, container, team)
        }
        return (store, container)
    }

    /// A newer seed, `bundle2/EMPlan.sqlite`, of `layout` (the fixture's by default): Seeds/EMPlan's
    /// setup with Germany's coach renamed Jogi and `replacements`.
    func newerSeed(_ replacements: [(String, String)] = [], layout: StoreLayout? = nil) throws -> String {
        let newer = directory.path("bundle2/EMPlan.sqlite")
        var setup = try String(contentsOf: RuntimeFixtures.seeds.appendingPathComponent("EMPlan/setup.plist"), encoding: .utf8)
        for (old, new) in [("Joachim", "Jogi")] + replacements {
            #expect(setup.contains(old))
            setup = setup.replacingOccurrences(of: old, with: new)
        }
        try RuntimeFixtures.build(layout ?? self.layout, at: newer, inputs: [try directory.write(setup, to: "bundle2/setup.plist")])
        return newer
    }

    /// A FIFO as the seed, or at the store's path, once hung the install forever under its lock.
    @Test func refusesSpecialFilesAtOnce() throws {
        defer { directory.remove() }
        let fifo = directory.path("bundle/pipe.sqlite")
        #expect(mkfifo(fifo, 0o644) == 0)
        let asSeed = #expect(throws: InstallError.self) { try installer(directory.path("a/EMPlan.sqlite"), seed: fifo).install() }
        guard case .badSeed(fifo, let problem) = asSeed?.reason else { Issue.record("\(String(describing: asSeed))"); return }
        #expect(problem.contains("not a regular file"))
        try FileManager.default.createDirectory(atPath: directory.path("b"), withIntermediateDirectories: true)
        #expect(mkfifo(directory.path("b/EMPlan.sqlite"), 0o644) == 0)
        let atStore = #expect(throws: InstallError.self) { try installer(directory.path("b/EMPlan.sqlite")).install() }
        #expect(atStore?.reason == .fileSystem(operation: "use as the store", path: directory.path("b/EMPlan.sqlite"), errno: .invalidArgument))
        try FileManager.default.createDirectory(atPath: directory.path("c/EMPlan.sqlite"), withIntermediateDirectories: true)
        let folder = #expect(throws: InstallError.self) { try installer(directory.path("c/EMPlan.sqlite")).install() }
        #expect(folder?.description.contains("it is a directory") == true, "\(String(describing: folder))")
    }

    @Test func installsIntoAMissingDirectoryThenKeepsTheStore() throws {
        defer { directory.remove() }
        let store = directory.path("data/nested/EMPlan.sqlite")
        let first = try installer(store).install()
        #expect(first.action == .installed)
        #expect(RuntimeFixtures.bytes(store) == RuntimeFixtures.bytes(seed))
        #expect(RuntimeFixtures.listing(directory.path("data/nested")) == [".EMPlan.sqlite.seedgen-lock", "EMPlan.sqlite"])
        #expect(try StoreSeal.check(path: store) == .intact)
        let second = try installer(store).install()
        #expect(second.action == .alreadyPresent)
        #expect(second.seed == .same)
        #expect(try StoreConnection(path: store, layout: layout, access: .readOnly).isInitialised())
    }

    @Test func isInitialisedIsFalseOnAnEmptyStoreOfTheSameModel() throws {
        defer { directory.remove() }
        let empty = directory.path("empty.sqlite")
        try RuntimeFixtures.build(layout, at: empty)
        #expect(try StoreConnection(path: empty, layout: layout, access: .readOnly).isInitialised() == false)
        #expect(try StoreConnection(path: seed, layout: layout, access: .readOnly).isInitialised())
        let error = #expect(throws: StoreOpenError.self) {
            try StoreConnection(path: seed, layout: layout, access: .readOnly).isInitialised(template: "noSuchTemplate")
        }
        #expect(error?.reason == .noTemplate("noSuchTemplate"))
        let other = #expect(throws: StoreOpenError.self) { try StoreContainer(storePath: seed, layout: try RuntimeFixtures.layout("Locations")) }
        guard case .otherModel(let differences) = other?.reason else { Issue.record("expected .otherModel, got \(String(describing: other?.reason))"); return }
        #expect(!differences.isEmpty)
    }

    /// Each bad seed is refused with a reason naming it, and the data directory gets no store and no temporary file.
    @Test(arguments: ["missing", "truncated", "corrupted", "header", "other model", "crafted metadata", "journal beside it"])
    func refusesABadSeed(_ damage: String) throws {
        defer { directory.remove() }
        let bad = directory.path("bad/EMPlan.sqlite")
        try FileManager.default.createDirectory(atPath: directory.path("bad"), withIntermediateDirectories: true)
        let original = RuntimeFixtures.bytes(seed)!
        var expected = ""
        switch damage {
        case "missing":
            expected = "no such file"
        case "truncated":
            try original.prefix(original.count - 4096).write(to: URL(fileURLWithPath: bad))
            expected = "truncated"
        case "corrupted":
            var bytes = original
            bytes[bytes.count - 3000] ^= 0x5A  // inside the last page's rows
            try bytes.write(to: URL(fileURLWithPath: bad))
            expected = "do not match the seal"
        case "header":
            var bytes = original
            bytes[0] = UInt8(ascii: "X")
            try bytes.write(to: URL(fileURLWithPath: bad))
            expected = "not an SQLite database"
        case "other model":
            try RuntimeFixtures.build(try RuntimeFixtures.layout("Locations"), at: bad)
            expected = "made for another model"
        case "crafted metadata":
            // A Z_PLIST that crashed Foundation's reader (kept from the metadata fuzz target).
            try original.write(to: URL(fileURLWithPath: bad))
            let plist = try #require(try FuzzRegressions.inputs(of: "metadata").first).bytes
            try SQLiteShell.execute("UPDATE Z_METADATA SET Z_PLIST = \(SQLiteShell.blobLiteral(plist))", on: bad)
            expected = "Z_PLIST"
        default:
            try original.write(to: URL(fileURLWithPath: bad))
            try Data("x".utf8).write(to: URL(fileURLWithPath: bad + "-journal"))
            expected = "-journal lies beside it"
        }
        let store = directory.path("data/EMPlan.sqlite")
        let error = #expect(throws: InstallError.self) { try installer(store, seed: bad).install() }
        #expect(error?.description.contains(bad) == true, "\(error?.description ?? "")")
        #expect(error?.description.contains(expected) == true, "\(error?.description ?? "")")
        // An app can tell a bad seed (a broken bundle) from other failures.
        guard case .badSeed(let path, let problem) = error?.reason else { Issue.record("expected .badSeed, got \(String(describing: error?.reason))"); return }
        #expect(path == bad && problem.contains(expected), "\(path): \(problem)")
        #expect(RuntimeFixtures.listing(directory.path("data")) == [".EMPlan.sqlite.seedgen-lock"])
    }

    /// An unsealed seed (as Core Data would leave it) is checked with quick_check and the content digest.
    @Test func checksAnUnsealedSeedByItsContentDigest() throws {
        defer { directory.remove() }
        let unsealed = directory.path("unsealed.sqlite")
        try FileManager.default.copyItem(atPath: seed, toPath: unsealed)
        // Drop the seal key and change one row: only the content digest can notice.
        let connection = try StoreConnection(path: unsealed, layout: layout)
        var metadata = try connection.metadata()
        metadata.seal = nil
        try SQLiteShell.execute("UPDATE Z_METADATA SET Z_PLIST = \(SQLiteShell.blobLiteral(metadata.encoded()))", on: unsealed)
        #expect(throws: Never.self) { try installer(directory.path("a/EMPlan.sqlite"), seed: unsealed).install() }
        try SQLiteShell.execute("UPDATE ZTEAM SET ZNAME = 'Deutschland!' WHERE ZNAME = 'Deutschland'", on: unsealed)
        let error = #expect(throws: InstallError.self) { try installer(directory.path("b/EMPlan.sqlite"), seed: unsealed).install() }
        #expect(error?.description.contains("digest") == true, "\(error?.description ?? "")")
    }

    @Test func cleansUpAfterAnInterruptedInstallButNeverTouchesARealStoresJournal() throws {
        defer { directory.remove() }
        let data = directory.path("data")
        try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: true)
        let store = data + "/EMPlan.sqlite"
        let stray = data + "/.EMPlan.sqlite.seedgen-install-999-1"
        try Data(repeating: 7, count: 5000).write(to: URL(fileURLWithPath: stray))
        try Data("old log".utf8).write(to: URL(fileURLWithPath: store + "-wal"))
        let report = try installer(store).install()
        #expect(report.action == .installed)
        #expect(report.cleanedUp.contains(stray))
        #expect(!FileManager.default.fileExists(atPath: stray))
        // The orphaned log was moved aside, not applied to the new store and not deleted.
        #expect(!FileManager.default.fileExists(atPath: store + "-wal"))
        let moved = RuntimeFixtures.listing(data).filter { $0.hasPrefix("EMPlan.sqlite-wal.orphaned-") }
        #expect(moved.count == 1)
        #expect(RuntimeFixtures.bytes(store) == RuntimeFixtures.bytes(seed))

        // With a store there, a journal beside it belongs to it: left exactly as it is.
        try Data("live journal".utf8).write(to: URL(fileURLWithPath: store + "-journal"))
        #expect(try installer(store).install().action == .alreadyPresent)
        #expect(RuntimeFixtures.bytes(store + "-journal") == Data("live journal".utf8))
    }

    @Test func reportsANewerSeedAndAppliesThePolicy() throws {
        defer { directory.remove() }
        // The user changes the store; a new app version ships a seed with Germany's coach renamed.
        let (store, container) = try installedAndChanged()
        let newer = try newerSeed()

        let kept = try installer(store, seed: newer).install()
        #expect(kept.action == .alreadyPresent)
        guard case .differs(let reasons) = kept.seed else { Issue.record("expected a difference, got \(kept.seed)"); return }
        #expect(reasons.joined().contains("content digest"))
        #expect(try container.viewContext.count("Team", where: "name == 'Polska'") == 1)

        // Initialised: replaceIfNotInitialised keeps it too.
        #expect(try installer(store, seed: newer, policy: .replaceIfNotInitialised).install().action == .alreadyPresent)

        let replaced = try installer(store, seed: newer, policy: .replace).install()
        guard case .replaced(let backup) = replaced.action else { Issue.record("expected a replacement, got \(replaced.action)"); return }
        #expect(RuntimeFixtures.bytes(store) == RuntimeFixtures.bytes(newer))
        #expect(try StoreConnection(path: backup, layout: layout, access: .readOnly).count(FetchRequest(entity: "Team", predicate: try FetchPredicate(parsing: "name == 'Polska'"))) == 1)
        #expect(try installer(store, seed: newer, policy: .replace).install().action == .alreadyPresent)
    }

    /// The policy `update` on the same path, every rule through the runtime: a newer seed renames
    /// Germany's coach (a new key: the old coach goes, the new one comes, the team points at it)
    /// and moves Borussia Dortmund's players to another club; the user renamed Poland, changed
    /// Piszczek's club, deleted Greece's coach and added a player of their own. The user's
    /// changes, deletion and player stay; the store keeps its file. `updatable`: the bundled seed
    /// carries its record (`seedgen build --updatable`), so the install was a copy of it.
    @Test(arguments: [false, true]) func updatesToANewerSeedKeepingTheUsersChange(updatable: Bool) throws {
        defer { directory.remove() }
        if updatable {
            try RuntimeFixtures.emplanSeed(at: seed, updatable: true)
            #expect(try SQLiteShell.rows(seed, "SELECT COUNT(*) FROM sqlite_master WHERE name = 'SEEDGEN_PACKED'") == ["1"])
        }
        let (store, container) = try installedAndChanged { writer, container, poland in
            let piszczek = try container.viewContext.fetch("Player", where: "name == 'Piszczek'")[0].objectID
            try writer.update(piszczek, ["club": .text("mine")])
            try writer.delete(try container.viewContext.fetch("Coach", where: "name == 'Santos'")[0].objectID)
            try writer.relate(try writer.insert("Player", ["givenname": .text("Fan"), "name": .text("Eins")]), "team", to: poland)
        }
        let newer = try newerSeed([("Borussia Dortmund", "BVB")])
        let inode = try FileManager.default.attributesOfItem(atPath: store)[.systemFileNumber] as? Int

        let result = try installer(store, seed: newer, policy: .update).install()
        guard case .updated(let report) = result.action else { Issue.record("expected an update, got \(result.action)"); return }
        #expect(report.added.map(\.description).contains { $0.hasPrefix("Coach[") && $0.contains("Jogi") }, "\(report.added)")
        #expect(report.removed.map(\.description).contains { $0.hasPrefix("Coach[") && $0.contains("Joachim") }, "\(report.removed)")
        #expect(Set(report.changed.map(\.entity)) == ["Team", "Player"], "\(report.changed)")
        #expect(report.keptChangedByUser.map(\.description) == [#"Player[givenname="Łukasz", name="Piszczek"]"#], "\(report.keptChangedByUser)")
        #expect(try container.viewContext.count("Team", where: "name == 'Polska'") == 1)
        #expect(try container.viewContext.count("Coach", where: "givenname == 'Jogi' AND team.name == 'Deutschland'") == 1)
        #expect(try container.viewContext.count("Player", where: "club == 'Borussia Dortmund'") == 0)
        #expect(try container.viewContext.count("Player", where: "club == 'BVB'") == 6)
        #expect(try container.viewContext.count("Player", where: "name == 'Piszczek' AND club == 'mine'") == 1)
        #expect(try container.viewContext.count("Coach", where: "name == 'Santos'") == 0)
        #expect(try container.viewContext.count("Player", where: "givenname == 'Fan' AND team.name == 'Polska'") == 1)
        #expect(try StoreVerifier(storePath: store, layout: layout).verify().filter { !$0.isNote }.isEmpty)
        #expect(try FileManager.default.attributesOfItem(atPath: store)[.systemFileNumber] as? Int == inode)
        #expect(try installer(store, seed: newer, policy: .update).install().action == .alreadyPresent)
    }

    /// The seed carries no record of its objects; the policy `update` writes it into the copy
    /// before the copy is put in place: every object and link, the metadata naming the seed. A
    /// store installed under another policy records nothing, and a later update is refused with
    /// the store as it was.
    @Test func recordsTheSeedOnlyUnderThePolicyUpdate() throws {
        defer { directory.remove() }
        let recordTables = "SELECT COUNT(*) FROM sqlite_master WHERE name IN ('SEEDGEN_SEEDED', 'SEEDGEN_PACKED', 'SEEDGEN_LINKED')"
        #expect(try SQLiteShell.rows(seed, recordTables) == ["0"])
        let recorded = directory.path("recorded/EMPlan.sqlite")
        #expect(try installer(recorded, policy: .update).install().action == .installed)
        #expect(try SQLiteShell.rows(recorded, recordTables) == ["2"])
        let objects = try layout.tables.reduce(0) { $0 + Int(try SQLiteShell.rows(recorded, "SELECT COUNT(*) FROM \($1.name)")[0])! }
        #expect(objects > 0)
        #expect(try SQLiteShell.rows(recorded, "SELECT SUM(length(ENTRIES)) / 10 FROM SEEDGEN_PACKED") == ["\(objects)"], "packed: ten bytes an object")
        let metadata = try StoreConnection.metadata(ofStoreAt: recorded)
        #expect(metadata.seedDigest == (try StoreConnection.metadata(ofStoreAt: seed)).contentDigest && metadata.seal == nil)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path("recorded")).filter { $0.hasPrefix(".") && !$0.hasSuffix("-lock") }.isEmpty)

        let plain = directory.path("plain/EMPlan.sqlite")
        #expect(try installer(plain).install().action == .installed)
        #expect(try SQLiteShell.rows(plain, recordTables) == ["0"])
        let newer = try newerSeed()
        let before = RuntimeFixtures.bytes(plain)
        #expect {
            try installer(plain, seed: newer, policy: .update).install()
        } throws: { error in
            guard let error = error as? InstallError, case .updateFailed = error.reason else { return false }
            // The store's path said once, where it was "cannot update P: P: the store …".
            return error.description.contains("no record of the seed it was installed from") && error.description.contains("seedgen install")
                && error.description.components(separatedBy: plain).count == 2
        }
        #expect(RuntimeFixtures.bytes(plain) == before)
    }

    /// The policy `update` as an app on Apple platforms meets it, knowing its model only by its
    /// hashes: seed 2 is of a model version that adds `Team.nickname`; the installed store (seed
    /// 1, the user's rename of Poland) is migrated with the models both seeds carry, then
    /// updated, before anything opens it. It verifies against version 2 and carries its model.
    @Test func updatesAcrossAModelChangeKnowingOnlyTheModelsHashes() throws {
        defer { directory.remove() }
        let (store, _) = try installedAndChanged()
        let source = try String(contentsOf: RuntimeFixtures.seeds.appendingPathComponent("EMPlan/EMPlan.xcdatamodeld/EMPlan.xcdatamodel/contents"), encoding: .utf8)
        let team = #"<relationship name="coach" optional="YES" maxCount="1" deletionRule="Cascade""#
        let nickname = source.replacingOccurrences(of: team, with: #"<attribute name="nickname" optional="YES" attributeType="String"/>"# + team)
        #expect(nickname != source)
        let layout2 = try StoreLayout(model: try ModelLoader.load(from: try directory.write(nickname, to: "EMPlan 2.xcdatamodel/contents")))
        let newer = try newerSeed(layout: layout2)

        let app = SeedInstaller(seedPath: newer, storePath: store, model: ModelIdentity(model: layout2.model), policy: .update)
        let result = try app.install()
        guard case .updated(let report) = result.action else { Issue.record("expected an update, got \(result.action)"); return }
        #expect(report.migratedFrom == "the installed seed's model")
        #expect(report.added.map(\.description).contains { $0.hasPrefix("Coach[") && $0.contains("Jogi") }, "\(report.added)")
        #expect(try StoreVerifier(storePath: store, layout: layout2).verify().isEmpty)
        let migrated = try StoreContainer(storePath: store, layout: layout2)
        #expect(try migrated.viewContext.count("Team", where: "name == 'Polska'") == 1)
        #expect(try migrated.viewContext.count("Coach", where: "givenname == 'Jogi' AND team.name == 'Deutschland'") == 1)
        #expect(try app.install().action == .alreadyPresent)
        // A seed of a model that is not the app's (seed 1 now) is not brought in: the store stays as it is.
        let before = RuntimeFixtures.bytes(store)
        let other = try SeedInstaller(seedPath: seed, storePath: store, model: ModelIdentity(model: layout2.model), policy: .update).install()
        #expect(other.action == .alreadyPresent)
        guard case .unavailable(let why) = other.seed else { Issue.record("\(other.seed)"); return }
        #expect(why.contains("made for another model"), "\(why)")
        #expect(RuntimeFixtures.bytes(store) == before)
    }

    @Test func installsFromAReadOnlySeedLocation() throws {
        defer {
            chmod(directory.path("bundle"), 0o755)
            directory.remove()
        }
        chmod(seed, 0o444)
        chmod(directory.path("bundle"), 0o555)
        let store = directory.path("data/EMPlan.sqlite")
        #expect(try installer(store).install().action == .installed)
        #expect(RuntimeFixtures.listing(directory.path("bundle")) == ["EMPlan.sqlite"])
    }

    /// A store already there in a directory the app cannot write (a read-only container):
    /// `.alreadyPresent`, and nothing written there, not even the lock. Root writes anywhere, so
    /// as root the check runs as `nobody`, through the EM-Plan app's start (`FirstStart`).
    @Test func alreadyPresentInAReadOnlyDirectory() throws {
        defer {
            chmod(directory.path("data"), 0o755)
            directory.remove()
        }
        let store = directory.path("data/EMPlan.sqlite")
        #expect(try installer(store).install().action == .installed)
        try FileManager.default.removeItem(atPath: directory.path("data/.EMPlan.sqlite.seedgen-lock"))
        chmod(directory.path("data"), 0o555)
        if geteuid() != 0 {
            #expect(try installer(store).install().action == .alreadyPresent)
            #expect(try installer(store, policy: .update).install().action == .alreadyPresent)
        } else {
            for (path, mode) in [(directory.url.path, 0o755), (directory.path("bundle"), 0o755), (seed, 0o644), (store, 0o644)] {
                chmod(path, mode_t(mode))
            }
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
            process.arguments = ["--reuid=65534", "--regid=65534", "--clear-groups", try #require(SeedgenTool.program(named: "emplan")).path, "status",
                                 "--data-dir", directory.path("data"), "--seed", seed,
                                 "--model", RuntimeFixtures.seeds.appendingPathComponent("EMPlan/EMPlan.xcdatamodeld").path]
            let output = Pipe()
            process.standardOutput = output
            process.standardError = output
            try process.run()
            let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            #expect(process.terminationStatus == 0 && text.contains("initialisationCheck: initialised"), "\(text)")
        }
        #expect(RuntimeFixtures.listing(directory.path("data")) == ["EMPlan.sqlite"])
    }

    @Test func failsClearlyWithoutWritePermission() throws {
        defer {
            chmod(directory.path("locked"), 0o755)
            directory.remove()
        }
        // Root may write anywhere, so for root the directory cannot be made: it would lie under a file.
        let parent: String
        if geteuid() == 0 {
            try Data().write(to: URL(fileURLWithPath: directory.path("plain-file")))
            parent = directory.path("plain-file")
        } else {
            try FileManager.default.createDirectory(atPath: directory.path("locked"), withIntermediateDirectories: true)
            chmod(directory.path("locked"), 0o555)
            parent = directory.path("locked")
        }
        let error = #expect(throws: InstallError.self) { try installer(parent + "/app/EMPlan.sqlite").install() }
        #expect(error?.description.contains(parent + "/app") == true, "\(error?.description ?? "")")
        // A file-system failure, with the path and the errno an app can switch on.
        guard case .fileSystem(_, let path, let code) = error?.reason else { Issue.record("expected .fileSystem, got \(String(describing: error?.reason))"); return }
        #expect(path == parent + "/app")
        #expect(code == (geteuid() == 0 ? .notDirectory : .permissionDenied), "\(code)")
    }

    @Test func dataDirectoryFollowsXDG() {
        defer { directory.remove() }  // the suite's init made it, with a seed in it
        #expect(DataDirectory.path(forApp: "emplan", environment: ["XDG_DATA_HOME": "/x/data", "HOME": "/home/u"]) == "/x/data/emplan")
        #expect(DataDirectory.path(forApp: "emplan", environment: ["HOME": "/home/u"]) == "/home/u/.local/share/emplan")
        #expect(DataDirectory.path(forApp: "emplan", environment: ["XDG_DATA_HOME": "relative", "HOME": "/home/u"]) == "/home/u/.local/share/emplan")
    }
}
