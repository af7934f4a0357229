import Foundation
import SeedgenTestSupport
import Testing

/// `seedgen update` killed with SIGKILL at random moments: the store is wholly as it was (byte
/// for byte once SQLite rolled the cut-off transaction back) or wholly updated and verifies
/// clean; the next run completes the update to the same objects an uninterrupted one leaves,
/// and nothing is left beside the store. `make test` kills 5 updates of a 5,000-book store;
/// `make kill-test` 100 of a 100,000-book store (`SEEDGEN_KILLS`, `SEEDGEN_KILL_OBJECTS`).
@Suite(.serialized) struct UpdateKillTests {
    static let kills = Int(ProcessInfo.processInfo.environment["SEEDGEN_KILLS"] ?? "") ?? 5
    static let objects = Int(ProcessInfo.processInfo.environment["SEEDGEN_KILL_OBJECTS"] ?? "") ?? 5_000

    /// `count` books of `DiffCommandTests.model` by 10 authors; in `version` 2 every 20th is
    /// repriced, every 20th (offset 1) removed, and as many added.
    static func seed(books count: Int, version: Int) -> String {
        var books: [String] = []
        for number in 0..<count {
            if version == 2 && number % 20 == 1 { continue }
            let price = version == 2 && number % 20 == 0 ? "0.5" : "\(number % 100)"
            books.append(#"{"isbn": "\#(number)", "title": "Book \#(number)", "price": \#(price), "authors": ["a\#(number % 10)"]}"#)
        }
        if version == 2 {
            for number in 0..<(count / 20) { books.append(#"{"isbn": "new\#(number)", "title": "New", "authors": ["a0"]}"#) }
        }
        let authors = (0..<10).map { #"{"name": "a\#($0)"}"# }.joined(separator: ", ")
        return #"{"Authors": [\#(authors)], "Books": [\#(books.joined(separator: ",\n"))]}"#
    }

    @Test func killedUpdatesLeaveTheOldOrTheNewState() throws {
        let directory = try DiffCommandTests.setUp()
        defer { directory.remove() }
        let model = directory.path("Shelf.xcdatamodel")
        let seed1 = try DiffCommandTests.build(Self.seed(books: Self.objects, version: 1), as: "v1", in: directory)
        let seed2 = try DiffCommandTests.build(Self.seed(books: Self.objects, version: 2), as: "v2", in: directory)
        for file in ["v1.json", "v2.json"] { try FileManager.default.removeItem(atPath: directory.path(file)) }
        // The installed store, with a user's change; and what an uninterrupted update makes of it.
        let store = try directory.install(seed1, as: "store.sqlite")
        try SQLiteShell.execute("UPDATE ZBOOK SET ZTITLE = 'mine' WHERE ZISBN = '20'", on: store)
        let installed = try Data(contentsOf: URL(fileURLWithPath: store))
        let reference = try directory.copy(URL(fileURLWithPath: store), as: "reference.sqlite")
        let started = Date()
        #expect(try SeedgenTool.run(["update", reference, "--seed", seed2, "--model", model]).status == 0)
        let duration = Date().timeIntervalSince(started) * 1.2
        var updated = 0
        for round in 0..<Self.kills {
            try installed.write(to: URL(fileURLWithPath: store))
            try SeedgenTool.kill(["update", store, "--seed", seed2, "--model", model], after: Double.random(in: 0..<duration))
            // What any writer does first: SQLite rolls a cut-off transaction back.
            try SQLiteShell.execute("SELECT COUNT(*) FROM sqlite_master", on: store)
            let wasUpdated = try Data(contentsOf: URL(fileURLWithPath: store)) != installed
            if wasUpdated {
                updated += 1
                #expect(try SeedgenTool.run(["verify", store, "--model", model]).status == 0, "round \(round): the updated store is not clean")
            }
            let next = try SeedgenTool.run(["update", store, "--seed", seed2, "--model", model])
            #expect(next.status == 0, "round \(round): \(next.error)")
            #expect(next.output.contains("holds this seed already") == wasUpdated, "round \(round): \(next.output.suffix(300))")
            let same = try SeedgenTool.run(["diff", reference, store, "--model", model])
            #expect(same.status == 0, "round \(round): \(same.output.suffix(500))")
            let left = try FileManager.default.contentsOfDirectory(atPath: directory.path("")).filter { $0.hasPrefix("store.sqlite") }
            #expect(left == ["store.sqlite"], "round \(round): left beside the store: \(left)")
        }
        print("update kills: \(Self.kills) on \(Self.objects) books, \(updated) left the new state, \(Self.kills - updated) the old; one update \(Int(duration / 1.2 * 1000)) ms")
    }
}
