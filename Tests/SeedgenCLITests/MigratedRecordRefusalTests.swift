import Foundation
import SeedgenTestSupport
import Testing

/// The seed record's migration tables damaged: every command that reads them refuses, naming
/// the table (the record through migrations itself: SeedEvolutionTests' `MigratedRecordTests`).
@Suite("the seed record through migrations, damaged")
struct MigratedRecordRefusalTests {
    @Test("a damaged rule (a column its entity lacks, positions off, a column left out, an unknown entity, name places off or not numbers, 20,000 rows) or damaged entity numbers (an unknown entity, one twice, a number no row is under, not a number, 20,000 rows): update and migrate (exit 1: the record does not add up) refuse them, named, the store's bytes unchanged; dump and diff too", arguments: [
        #"UPDATE SEEDGEN_DIGESTED SET COLUMN = 'ZTITLE"; DROP TABLE ZBOOK; --' WHERE COLUMN = 'ZPAGES'"#,
        "UPDATE SEEDGEN_DIGESTED SET POSITION = POSITION + 1 WHERE POSITION IS NOT NULL",
        "DELETE FROM SEEDGEN_DIGESTED WHERE COLUMN = 'ZISBN'",
        "UPDATE SEEDGEN_DIGESTED SET ENTITY = 99",
        "UPDATE SEEDGEN_DIGESTED SET VALUE = 5 WHERE POSITION = 0",
        "UPDATE SEEDGEN_DIGESTED SET VALUE = 'x' WHERE POSITION = 0",
        "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 20000) INSERT INTO SEEDGEN_DIGESTED SELECT 2, 'Z' || i, NULL, 0 FROM n",
        "CREATE TABLE SEEDGEN_RENUMBERED (RECORDED, ENTITY); INSERT INTO SEEDGEN_RENUMBERED VALUES (1, 2), (2, 99)",
        "CREATE TABLE SEEDGEN_RENUMBERED (RECORDED, ENTITY); INSERT INTO SEEDGEN_RENUMBERED VALUES (1, 2), (2, 2)",
        // A number no record row is under: Shelf's rows (under 3) would belong to no entity (was: exit 0, the shelves the user's).
        "CREATE TABLE SEEDGEN_RENUMBERED (RECORDED, ENTITY); INSERT INTO SEEDGEN_RENUMBERED VALUES (1, 1), (2, 2), (99, 3)",
        "CREATE TABLE SEEDGEN_RENUMBERED (RECORDED, ENTITY); INSERT INTO SEEDGEN_RENUMBERED VALUES (1, 2), (1, 1)",
        "CREATE TABLE SEEDGEN_RENUMBERED (RECORDED, ENTITY); INSERT INTO SEEDGEN_RENUMBERED VALUES ('1', 2), (2, 1)",
        "CREATE TABLE SEEDGEN_RENUMBERED (RECORDED, ENTITY); WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 20000) INSERT INTO SEEDGEN_RENUMBERED SELECT i, 1 FROM n",
    ])
    func hostileRecordTables(_ tampering: String) throws {
        let table = tampering.contains("SEEDGEN_RENUMBERED") ? "SEEDGEN_RENUMBERED" : "SEEDGEN_DIGESTED"
        let directory = try ShelfModel.setUp()
        defer { directory.remove() }
        let (store, bundle) = try ShelfModel.installedStore(in: directory)
        #expect(try SeedgenTool.run(["migrate", store, "--model", bundle]).status == 0)
        try SQLiteShell.execute(tampering, on: store)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: store))
        let seed2 = try ShelfModel.seed("v2", bundle: bundle, price: "cost", in: directory)
        let update = try SeedgenTool.run(["update", store, "--seed", seed2, "--model", bundle])
        #expect(update.status == 1 && update.error.contains(table), "\(update.output)\(update.error)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: store)) == bytes)
        _ = try ClubModels.writeBundle([("Shelf", ShelfModel.model), ("Shelf 2", ShelfModel.v2Model), ("Shelf 3", ShelfModel.v3Model)], current: "Shelf 3", in: directory)
        let migrate = try SeedgenTool.run(["migrate", store, "--model", bundle])
        #expect(migrate.status == 1 && migrate.error.contains(table), "\(migrate.output)\(migrate.error)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: store)) == bytes)
        #expect(FileManager.default.fileExists(atPath: store + "-journal") == false)
        guard table == "SEEDGEN_RENUMBERED" else { return }
        // The readers that translate the record's numbers refuse them too.
        let dump = try SeedgenTool.run(["dump", store, "--model", bundle])
        #expect(dump.status != 0 && dump.error.contains(table), "\(dump.output)\(dump.error)")
        let diff = try SeedgenTool.run(["diff", store, seed2, "--model", bundle + "/Shelf 2.xcdatamodel"])
        #expect(diff.status == 1 && diff.error.contains(table), "\(diff.output)\(diff.error)")
    }
}
