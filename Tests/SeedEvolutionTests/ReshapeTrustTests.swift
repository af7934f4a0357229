import Foundation
import SeedModelLoader
import SeedgenTestSupport
import Testing
@testable import SeedEvolution

/// A reshaped relationship is carried or refused by its typed facts, never lost: each case once
/// ended in a migration that dropped every link and said it succeeded. Read from
/// `StoreMigrator`'s report and errors and the store's rows; `seedgen migrate`'s words and exit
/// statuses are the command line's tests.
@Suite("Reshaped relationships: carried or refused, never lost")
struct ReshapeTrustTests {
    /// A bundle of `versions` (the last current), and a store of the first built from `data`
    /// (`keys`: build keys).
    static func setUp(_ versions: [(String, String)], data: String, as name: String, keys: [String] = []) throws -> (TemporaryDirectory, bundle: String, store: String) {
        let directory = try TemporaryDirectory()
        let bundle = try ClubModels.writeBundle(versions, current: versions.last!.0, in: directory)
        let store = directory.path("v1.sqlite")
        let source = try directory.write(data, to: name)
        let build = try SeedgenTool.run(["build", "--model", bundle + "/\(versions[0].0).xcdatamodel", "--output", store, "--quiet", source] + keys.flatMap { ["--key", $0] })
        guard build.status == 0 else { throw FixtureError(build.error) }
        return (directory, bundle, store)
    }

    static func bytes(_ path: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path)) }

    /// The migration of `store` to `bundle`'s current version, or the reason it was refused.
    static func migrate(_ store: String, bundle: String) throws -> Result<StoreMigrator.Report, MigrationError> {
        let migrator = StoreMigrator(storeAt: store, versions: try ModelLoader.loadVersions(from: bundle))
        do { return .success(try migrator.migrate()) } catch { return .failure(error) }
    }

    /// v1 with Club.members made a required to-one (Person.club stays its to-one inverse).
    static let requiredToOne = ClubModels.v1.replacingOccurrences(
        of: #"<relationship name="members" optional="YES" toMany="YES""#, with: #"<relationship name="members" maxCount="1""#)

    @Test("a to-many made a required to-one: a club of two members is not carried, a club of none is refused, one member each is carried (was: every link NULL, no error)")
    func toManyMadeRequiredToOne() throws {
        for (data, expected) in [
            (#"<Seed><Club name="A"><Person name="P1"/><Person name="P2"/></Club></Seed>"#, "notCarriedOut Club.members"),
            (#"<Seed><Club name="A"><Person name="P1"/></Club><Club name="B"/></Seed>"#, "refused requiredWithoutValue Club.members"),
        ] {
            let (directory, bundle, store) = try Self.setUp([("Club", ClubModels.v1), ("Club 2", Self.requiredToOne)], data: data, as: "Seed.xml")
            defer { directory.remove() }
            let before = try Self.bytes(store)
            let found: String
            switch try Self.migrate(store, bundle: bundle) {
            case .failure(let error):
                switch error.reason {
                case .notCarriedOut(let subject): found = "notCarriedOut \(subject)"
                case .refused(let refusals): found = "refused " + refusals.map { "\($0.reason) \($0.subject)" }.joined(separator: ", ")
                default: found = "\(error)"
                }
            case .success(let report): found = "migrated \(report.rowCounts)"
            }
            #expect(found == expected)
            #expect(try Self.bytes(store) == before)
        }
        let (directory, bundle, store) = try Self.setUp([("Club", ClubModels.v1), ("Club 2", Self.requiredToOne)],
                                                        data: #"<Seed><Club name="A"><Person name="P1"/></Club><Club name="B"><Person name="P2"/></Club></Seed>"#, as: "Seed.xml")
        defer { directory.remove() }
        #expect(try Self.migrate(store, bundle: bundle).get().migrated)
        #expect(try SQLiteShell.rows(store, "SELECT c.ZNAME, p.ZNAME FROM ZCLUB c JOIN ZPERSON p ON p.Z_PK = c.ZMEMBERS ORDER BY 1") == ["A|P1", "B|P2"])
        #expect(try Engines.findings(store, model: bundle + "/Club 2.xcdatamodel") == [])
    }

    /// Posts and tags, many-to-many; then each tag of one post (Tag.posts gone, Tag.post added).
    static let tagged = ClubModels.contents("""
        <entity name="Post">
            <attribute name="title" attributeType="String"/>
            <relationship name="tags" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Tag" inverseName="posts" inverseEntity="Tag"/>
        </entity>
        <entity name="Tag">
            <attribute name="name" attributeType="String"/>
            <relationship name="posts" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Post" inverseName="tags" inverseEntity="Post"/>
        </entity>
        """)
    static let taggedOnce = tagged.replacingOccurrences(
        of: #"<relationship name="posts" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Post" inverseName="tags""#,
        with: #"<relationship name="post" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Post" inverseName="tags""#)
        .replacingOccurrences(of: #"inverseName="posts" inverseEntity="Tag""#, with: #"inverseName="post" inverseEntity="Tag""#)

    @Test("a many-to-many whose inverse becomes a to-one of another name: the dry run removes nothing, the run carries every link; a tag of two posts is not carried, nothing changed (was: 'tags kept', every link gone)")
    func manyToManyMadeOneToMany() throws {
        let (directory, bundle, store) = try Self.setUp([("Club", Self.tagged), ("Club 2", Self.taggedOnce)], data: """
            {"Tags": [{"name": "a"}, {"name": "b"}, {"name": "c"}],
             "Posts": [{"title": "one", "tags": ["a", "b"]}, {"title": "two", "tags": ["c"]}]}
            """, as: "seed.json", keys: ["Tag=name"])
        defer { directory.remove() }
        // Tag.posts goes, but its links stay as Post.tags' (carried, as Core Data's mapping carries a kept to-many).
        let rehearsal = try StoreMigrator(storeAt: store, versions: try ModelLoader.loadVersions(from: bundle)).rehearse()
        #expect(rehearsal.assessment.removals.isEmpty, "\(rehearsal.assessment.removals)")
        let shared = directory.path("shared.sqlite")
        try FileManager.default.copyItem(atPath: store, toPath: shared)
        #expect(try Self.migrate(store, bundle: bundle).get().migrated)
        #expect(try SQLiteShell.rows(store, "SELECT t.ZNAME, p.ZTITLE FROM ZTAG t JOIN ZPOST p ON p.Z_PK = t.ZPOST ORDER BY 1") == ["a|one", "b|one", "c|two"])
        #expect(try Engines.findings(store, model: bundle + "/Club 2.xcdatamodel") == [])
        // A tag of two posts cannot be one post's: not carried, named, nothing changed.
        try SQLiteShell.execute("INSERT INTO Z_1TAGS SELECT (SELECT Z_PK FROM ZPOST WHERE ZTITLE = 'two'), Z_PK FROM ZTAG WHERE ZNAME = 'a'", on: shared)
        let before = try Self.bytes(shared)
        guard case .failure(let error) = try Self.migrate(shared, bundle: bundle), case .notCarriedOut(subject: "Tag.post") = error.reason else {
            Issue.record("a tag of two posts was carried")
            return
        }
        #expect(error.description.contains("Tag.post is a to-one that takes its links from its inverse"), "\(error)")
        #expect(try Self.bytes(shared) == before)
    }

    /// v1 with Person.nickname carrying `identifier` (an element ID, or none), and v2 with it
    /// replaced by `handle` carrying `element`.
    static func renamed(identifier: String, element: String) -> (v1: String, v2: String) {
        let nickname = #"<attribute name="nickname" optional="YES" attributeType="String"/>"#
        return (ClubModels.v1.replacingOccurrences(of: nickname, with: #"<attribute name="nickname" optional="YES" attributeType="String" \#(identifier)/>"#),
                ClubModels.v1.replacingOccurrences(of: nickname, with: #"<attribute name="handle" optional="YES" attributeType="String"\#(element)/>"#))
    }

    @Test("the lookalike-rename warning advises the identifier Core Data matches (the removed attribute's own, legacy, else its name), and the advice followed carries every value",
          arguments: [#"elementID="legacy""#, ""])
    func lookalikeAdviceFollowed(_ identifier: String) throws {
        let versions = Self.renamed(identifier: identifier, element: "")
        let (directory, bundle, store) = try Self.setUp([("Club", versions.v1), ("Club 2", versions.v2)],
                                                        data: #"<Seed><Person name="Ann" nickname="A"/><Person name="Bob" nickname="B"/></Seed>"#, as: "Seed.xml")
        defer { directory.remove() }
        let rehearsal = try StoreMigrator(storeAt: store, versions: try ModelLoader.loadVersions(from: bundle)).rehearse()
        let warning = try #require(rehearsal.assessment.warnings.first { $0.reason == .looksLikeRename && $0.subject == "Person.handle" }, "\(rehearsal.assessment.warnings)")
        let advised = try #require(warning.advisedIdentifier)
        #expect(advised == (identifier.isEmpty ? "nickname" : "legacy"))
        // Followed: the next version gives handle that identifier.
        _ = try ClubModels.writeBundle([("Club", versions.v1), ("Club 2", Self.renamed(identifier: identifier, element: #" elementID="\#(advised)""#).v2)],
                                       current: "Club 2", in: directory)
        let report = try Self.migrate(store, bundle: bundle).get()
        #expect(report.migrated && report.assessment.warnings.isEmpty && report.assessment.removals.isEmpty, "\(report.assessment)")
        #expect(try SQLiteShell.rows(store, "SELECT ZNAME, ZHANDLE FROM ZPERSON ORDER BY ZNAME") == ["Ann|A", "Bob|B"])
    }
}
