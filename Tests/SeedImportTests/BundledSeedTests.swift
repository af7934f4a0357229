import Foundation
import SeedImport
import SeedModel
import SeedModelLoader
import SeedStore
import SeedgenTestSupport
import Testing

/// The seeds in `Seeds/`, built as `make seed` builds them.
@Suite("Bundled seeds")
struct BundledSeedTests {
    static func build(_ name: String, into directory: TemporaryDirectory, as file: String = "out.sqlite") throws -> (StoreLayout, StoreBuilder.Summary) {
        let folder = Corpus.packageRoot.appendingPathComponent("Seeds/\(name)")
        let layout = try StoreLayout(model: try ModelLoader.load(from: folder.appendingPathComponent("\(name).xcdatamodeld").path))
        let inputs = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            .filter { !$0.hasSuffix(".xcdatamodeld") && !$0.hasPrefix(".") && !$0.hasSuffix(".md") }.sorted()
            .map { folder.appendingPathComponent($0).path }
        let builder = try StoreBuilder(layout: layout, outputPath: directory.path(file))
        let importer = SeedImporter(builder: builder)
        for input in inputs { try importer.importFile(input) }
        try importer.finish()
        return (layout, try builder.finish())
    }

    static func rows(_ path: String, _ sql: String) throws -> [String] {
        try SQLiteShell.rows(path, sql)
    }

    @Test("EM-Plan: 4 groups, 16 teams with coaches, 31 matches, Germany's 23, at least 3 players everywhere; clean and reproducible")
    func emPlan() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let (layout, summary) = try Self.build("EMPlan", into: directory)
        #expect(summary.rowCounts == ["Group": 4, "Team": 16, "Coach": 16, "Human": 0, "Player": 87, "Match": 31])
        #expect(try StoreVerifier(storePath: summary.path, layout: layout).verify().isEmpty)
        let db = summary.path
        #expect(try Self.rows(db, "SELECT COUNT(*) FROM ZTEAM WHERE ZNAME = 'Deutschland'") == ["1"])  // initialisationCheck
        #expect(try Self.rows(db, "SELECT MIN(n) FROM (SELECT COUNT(*) n FROM ZHUMAN WHERE Z_ENT = 4 GROUP BY ZTEAM1)") == ["3"])
        #expect(try Self.rows(db, "SELECT COUNT(*) FROM ZHUMAN p JOIN ZTEAM t ON t.Z_PK = p.ZTEAM1 WHERE t.ZNAME = 'Deutschland'") == ["23"])
        #expect(try Self.rows(db, "SELECT COUNT(*) FROM ZTEAM WHERE ZCOACH IS NOT NULL AND ZGROUP IS NOT NULL") == ["16"])
        #expect(try Self.rows(db, "SELECT COUNT(*) FROM ZMATCH WHERE ZHOME IS NOT NULL AND ZGUEST IS NOT NULL") == ["31"])
        // Knock-out matches state their pre-tournament slots plainly; group matches have none.
        #expect(try Self.rows(db, "SELECT COUNT(*) FROM ZMATCH WHERE ZGROUP IS NULL AND ZHOMEPLACEHOLDER IS NOT NULL AND ZGUESTPLACEHOLDER IS NOT NULL") == ["7"])
        #expect(try Self.rows(db, "SELECT ZHOMEPLACEHOLDER FROM ZMATCH WHERE ZNUMBER = 31") == ["Sieger Halbfinale 1"])
        // The opening match kicked off at 16:00 UTC on 8 June 2012.
        #expect(try Self.rows(db, "SELECT datetime(ZDATE + 978307200, 'unixepoch') FROM ZMATCH WHERE ZNUMBER = 1") == ["2012-06-08 16:00:00"])
        let (_, again) = try Self.build("EMPlan", into: directory, as: "again.sqlite")
        #expect(again.fileSHA256 == summary.fileSHA256)
    }

    @Test("Events: seed 002's three dates, read with the model's MM/dd/yyyy")
    func events() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let (_, summary) = try Self.build("Events", into: directory)
        #expect(try Self.rows(summary.path, "SELECT date(ZTIMESTAMP + 978307200, 'unixepoch') FROM ZEVENT ORDER BY Z_PK")
            == ["2010-01-16", "2010-02-01", "2010-03-05"])
    }
}
