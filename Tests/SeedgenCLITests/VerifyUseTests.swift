import Foundation
import SeedgenTestSupport
import Testing

/// `seedgen verify` tells damage from use: a store installed from a seed and then written by its
/// app as Core Data writes (an insert at `Z_MAX + 1`, an update raising `Z_OPT`, a delete, WAL
/// mode) is clean with notes; `--as-built` checks the seed is exactly as seedgen built it.
@Suite("seedgen verify: use is not damage")
struct VerifyUseTests {
    @Test("an app's insert, update and delete, in WAL mode: exit 0 with notes (was: content-digest and seal findings, exit 1); --as-built: exit 1")
    func usedStore() throws {
        let directory = try DiffCommandTests.setUp()
        defer { directory.remove() }
        let model = directory.path("Shelf.xcdatamodel")
        let store = try DiffCommandTests.build(DiffCommandTests.v1, as: "v1", in: directory)
        let fresh = try SeedgenTool.run(["verify", store, "--model", model, "--as-built"])
        #expect(fresh.status == 0, "\(fresh.output)")
        try SQLiteShell.execute("""
            PRAGMA journal_mode = WAL;
            INSERT INTO ZAUTHOR (Z_PK, Z_ENT, Z_OPT, ZNAME) VALUES ((SELECT Z_MAX + 1 FROM Z_PRIMARYKEY WHERE Z_NAME = 'Author'), 1, 1, 'Cy');
            UPDATE Z_PRIMARYKEY SET Z_MAX = Z_MAX + 1 WHERE Z_NAME = 'Author';
            UPDATE ZBOOK SET ZTITLE = 'Mine', Z_OPT = Z_OPT + 1 WHERE ZISBN = '3';
            DELETE FROM Z_1BOOKS WHERE Z_2BOOKS = (SELECT Z_PK FROM ZBOOK WHERE ZISBN = '1');
            """, on: store)
        let used = try SeedgenTool.run(["verify", store, "--model", model])
        #expect(used.status == 0 && used.output.contains("clean") && used.output.contains("changed since seedgen wrote it"), "\(used.output)")
        let asBuilt = try SeedgenTool.run(["verify", store, "--model", model, "--as-built"])
        #expect(asBuilt.status == 1 && asBuilt.output.contains("content-digest") && asBuilt.output.contains("seal"), "\(asBuilt.output)")
    }
}
