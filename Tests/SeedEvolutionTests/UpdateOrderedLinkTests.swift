import Foundation
import SeedgenTestSupport
import Testing
@testable import SeedEvolution

/// A seed update on an ordered many-to-many (Playlist.songs ↔ Song.playlists): the places of
/// the links in the owner's list, as the seed and the user set them.
@Suite("Update of an ordered many-to-many")
struct UpdateOrderedLinkTests {
    static let model = """
        <?xml version="1.0"?>
        <model>
        <entity name="Playlist"><attribute name="name" attributeType="String"/>
          <relationship name="songs" optional="YES" toMany="YES" ordered="YES" destinationEntity="Song" inverseName="playlists" inverseEntity="Song"/>
          <uniquenessConstraints><uniquenessConstraint><constraint value="name"/></uniquenessConstraint></uniquenessConstraints></entity>
        <entity name="Song"><attribute name="title" attributeType="String"/>
          <relationship name="playlists" optional="YES" toMany="YES" destinationEntity="Playlist" inverseName="songs" inverseEntity="Playlist"/>
          <uniquenessConstraints><uniquenessConstraint><constraint value="title"/></uniquenessConstraint></uniquenessConstraints></entity>
        </model>
        """

    /// A seed of songs `titles` and the playlist P listing `order`.
    static func seed(_ titles: [String], order: [String], as name: String, in directory: TemporaryDirectory) throws -> String {
        let songs = titles.map { #"{"title": "\#($0)"}"# }.joined(separator: ", ")
        let input = try directory.write(#"{"Songs": [\#(songs)], "Playlists": [{"name": "P", "songs": [\#(order.map { "\"\($0)\"" }.joined(separator: ", "))]}]}"#, to: "\(name).json")
        let store = directory.path("\(name).sqlite")
        let result = try SeedgenTool.run(["build", "--model", directory.path("contents"), "--output", store, "--quiet", input])
        #expect(result.status == 0, "\(result.error)")
        return store
    }

    /// P's songs in order, with their positions.
    static func list(_ store: String) throws -> [String] {
        try SQLiteShell.rows(store, "SELECT s.ZTITLE || ':' || j.Z_FOK_2SONGS FROM Z_1SONGS j JOIN ZSONG s ON s.Z_PK = j.Z_2SONGS ORDER BY j.Z_FOK_2SONGS, s.Z_PK")
    }

    /// Updates `store` to `seed`, checks it verifies clean; the update's report.
    @discardableResult
    static func update(_ store: String, to seed: String) throws -> SeedUpdateReport {
        let report = try Engines.update(store, seed: seed)
        #expect(try Engines.findings(store) == [])
        return report
    }

    /// Before, links that both seeds held kept seed 1's places: a seed that reordered a list
    /// changed nothing of the store's order.
    @Test("a list the new seed reorders is reordered; a link the user moved stays where the user put it, through later updates too; a user's member at a place the seed now uses: the list renumbered")
    func places() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        _ = try directory.write(Self.model, to: "contents")
        let seed1 = try Self.seed(["a", "b", "c"], order: ["a", "b", "c"], as: "v1", in: directory)
        let seed2 = try Self.seed(["a", "b", "c", "d"], order: ["c", "a", "b", "d"], as: "v2", in: directory)
        let seed3 = try Self.seed(["a", "b", "c"], order: ["a", "b", "c"], as: "v3", in: directory)
        #expect(try Self.list(seed1) == ["a:2048", "b:3072", "c:4096"])

        let untouched = try directory.install(seed1, as: "untouched.sqlite")
        let report = try Self.update(untouched, to: seed2)
        #expect(try Self.list(untouched) == ["c:2048", "a:3072", "b:4096", "d:5120"])
        #expect(report.changed.map(\.description) == [#"Playlist[name="P"]"#] && report.added.count == 1, "the playlist's order changed: \(report)")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: untouched))
        try Self.update(untouched, to: seed2)
        #expect(try Data(contentsOf: URL(fileURLWithPath: untouched)) == bytes, "the same update again writes nothing")

        // The user moved b to the front: it stays there, seed 2 and then seed 3 order the rest.
        let moved = try directory.install(seed1, as: "moved.sqlite")
        try SQLiteShell.execute("UPDATE Z_1SONGS SET Z_FOK_2SONGS = 1024 WHERE Z_2SONGS = (SELECT Z_PK FROM ZSONG WHERE ZTITLE = 'b')", on: moved)
        try Self.update(moved, to: seed2)
        #expect(try Self.list(moved) == ["b:1024", "c:2048", "a:3072", "d:5120"])
        try Self.update(moved, to: seed3)
        #expect(try Self.list(moved) == ["b:1024", "a:2048", "c:4096"])

        // The user added a song of their own at 5120, where seed 2 puts d: the list is renumbered
        // (the user's first: its Z_PK is lower), and d is still the seed's at its new place.
        let added = try directory.install(seed1, as: "added.sqlite")
        try SQLiteShell.execute("""
            INSERT INTO ZSONG (Z_PK, Z_ENT, Z_OPT, ZTITLE) VALUES ((SELECT Z_MAX + 1 FROM Z_PRIMARYKEY WHERE Z_NAME = 'Song'), 2, 1, 'mine');
            UPDATE Z_PRIMARYKEY SET Z_MAX = Z_MAX + 1 WHERE Z_NAME = 'Song';
            INSERT INTO Z_1SONGS VALUES (1, (SELECT Z_PK FROM ZSONG WHERE ZTITLE = 'mine'), 5120);
            """, on: added)
        try Self.update(added, to: seed2)
        #expect(try Self.list(added) == ["c:2048", "a:3072", "b:4096", "mine:5120", "d:6144"])
        try Self.update(added, to: seed3)
        #expect(try Self.list(added) == ["a:2048", "b:3072", "c:4096", "mine:5120"])
    }
}
