import Foundation
import SeedgenTestSupport
import Testing

/// `seedgen build --updatable`: the seed carries its packed record, so that an install to be
/// updated is a copy, and the store updates as one whose record the install wrote.
@Suite("seedgen build --updatable")
struct UpdatableSeedTests {
    typealias Build = DiffCommandTests

    /// `DiffCommandTests.v1` built with `--updatable` (reproducibly: built twice, byte for byte).
    static func updatableSeed(in directory: TemporaryDirectory) throws -> String {
        let input = try directory.write(Build.v1, to: "updatable.json")
        var bytes: [Data] = []
        for name in ["updatable.sqlite", "again.sqlite"] {
            let result = try SeedgenTool.run(["build", "--model", directory.path("Shelf.xcdatamodel"), "--output", directory.path(name), "--quiet",
                                              "--key", "Book=isbn", "--updatable", input])
            #expect(result.status == 0, "\(result.error)")
            bytes.append(try Data(contentsOf: URL(fileURLWithPath: directory.path(name))))
        }
        #expect(bytes[0] == bytes[1], "reproducible")
        return directory.path("updatable.sqlite")
    }

    @Test("the seed carries ten bytes an object and verifies clean; seedgen install is a byte-for-byte copy of it")
    func installIsACopy() throws {
        let directory = try Build.setUp()
        defer { directory.remove() }
        let plain = try Build.build(Build.v1, as: "v1", in: directory)
        let seed = try Self.updatableSeed(in: directory)
        let objects = "SELECT (SELECT COUNT(*) FROM ZAUTHOR) + (SELECT COUNT(*) FROM ZBOOK) + (SELECT COUNT(*) FROM ZSHELF)"
        #expect(try SQLiteShell.rows(seed, "SELECT SUM(length(ENTRIES)) / 10 FROM SEEDGEN_PACKED") == SQLiteShell.rows(seed, objects))
        #expect(try SQLiteShell.rows(plain, "SELECT COUNT(*) FROM sqlite_master WHERE name = 'SEEDGEN_PACKED'") == ["0"], "a plain seed carries none")
        #expect(try SQLiteShell.rows(seed, "SELECT Z_PK, ZTITLE FROM ZBOOK ORDER BY Z_PK") == SQLiteShell.rows(plain, "SELECT Z_PK, ZTITLE FROM ZBOOK ORDER BY Z_PK"))
        let verify = try SeedgenTool.run(["verify", seed])
        #expect(verify.status == 0, "\(verify.output)\(verify.error)")
        let store = directory.path("installed.sqlite")
        let install = try SeedgenTool.run(["install", seed, store])
        #expect(install.status == 0, "\(install.error)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: store)) == Data(contentsOf: URL(fileURLWithPath: seed)), "a copy")
    }

    @Test("a store installed from the updatable seed updates as one whose record the install wrote: the same report, the same rows")
    func updatesAsARecordedInstall() throws {
        let directory = try Build.setUp()
        defer { directory.remove() }
        let plain = try Build.build(Build.v1, as: "v1", in: directory)
        let seed = try Self.updatableSeed(in: directory)
        let seed2 = try Build.build(UpdateCommandTests.v2, as: "v2", in: directory)
        let stores = try [(plain, "from-plain.sqlite"), (seed, "from-updatable.sqlite")].map { seed, name in
            let store = directory.path(name)
            #expect(try SeedgenTool.run(["install", seed, store]).status == 0)
            // The user retitles book 2 and deletes Bob.
            try SQLiteShell.execute("UPDATE ZBOOK SET ZTITLE = 'mine', Z_OPT = Z_OPT + 1 WHERE ZISBN = '2'; DELETE FROM Z_1BOOKS WHERE Z_1AUTHORS = (SELECT Z_PK FROM ZAUTHOR WHERE ZNAME = 'Bob'); DELETE FROM ZAUTHOR WHERE ZNAME = 'Bob'", on: store)
            return store
        }
        let updates = try stores.map { try SeedgenTool.run(["update", $0, "--seed", seed2]) }
        #expect(updates.allSatisfy { $0.status == 0 }, "\(updates.map(\.error))")
        let reports = updates.map { $0.output.split(separator: "\n").filter { !$0.contains(".sqlite") }.sorted() }
        #expect(reports[0] == reports[1] && reports[0].contains(#"= Book[isbn="2"] kept: the user changed it"#), "\(reports)")
        let rows = "SELECT Z_PK, ZISBN, ZTITLE, ZPRICE, ZSHELF FROM ZBOOK UNION ALL SELECT Z_PK, ZNAME, NULL, NULL, NULL FROM ZAUTHOR ORDER BY 2"
        #expect(try SQLiteShell.rows(stores[0], rows) == SQLiteShell.rows(stores[1], rows))
        for store in stores {
            let verify = try SeedgenTool.run(["verify", store, "--model", directory.path("Shelf.xcdatamodel")])
            #expect(verify.status == 0, "\(verify.output)\(verify.error)")
        }
    }
}
