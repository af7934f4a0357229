import Foundation
import SeedImport
import SeedStore
import SeedgenTestSupport
import Testing

/// `StoreRehearsal` (the fuzz targets' way to run thousands of imports): each rehearsed build
/// starts on a store as fresh as a new builder's, whatever the ones before it wrote or threw.
@Suite("Store rehearsal")
struct StoreRehearsalTests {
    /// What a build left in its store: every row of every table and every schema entry.
    static func contents(of builder: StoreBuilder) throws -> [String] {
        var lines: [String] = []
        let tables = try builder.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
        var names: [String] = []
        while try tables.step() { names.append(tables.value(at: 0).text ?? "") }
        let schema = try builder.prepare("SELECT type, name, sql FROM sqlite_master ORDER BY name")
        while try schema.step() { lines.append("\(schema.row())") }
        for name in names {
            // Any number of columns (the seed's model table has one): rows compared as a sorted list.
            let rows = try builder.prepare("SELECT * FROM \"\(name.replacingOccurrences(of: "\"", with: "\"\""))\"")
            var found: [String] = []
            while try rows.step() { found.append("\(name): \(rows.row())") }
            lines += found.sorted()
        }
        return lines
    }

    @Test("a rehearsed build sees what a fresh builder sees, after builds that wrote, made indexes and threw")
    func eachBuildStartsFresh() throws {
        let run = try ImportRun()
        defer { run.directory.remove() }
        let groups = try run.directory.write(ImportTests.groups, to: "groups.xml")
        let teams = try run.directory.write(ImportTests.teams, to: "teams.xml")
        let broken = try run.directory.write("<Cup><Group name=\"C\"><Team name=", to: "broken.xml")
        func build(_ paths: [String], on builder: StoreBuilder) throws -> [String] {
            let importer = SeedImporter(builder: builder)
            for path in paths { try importer.importFile(path) }
            try importer.finish()
            return try Self.contents(of: builder)
        }
        // What fresh builders leave (before `finish`, as a rehearsal sees it).
        let fresh = try build([groups, teams], on: StoreBuilder(layout: run.layout, outputPath: run.output))
        let freshGroups = try build([groups], on: StoreBuilder(layout: run.layout, outputPath: run.output))
        #expect(fresh.contains { $0.hasPrefix("ZTEAM: ") } && fresh.contains { $0.contains("CREATE INDEX") })

        let rehearsal = try StoreRehearsal(layout: run.layout, path: run.directory.path("rehearsal.sqlite"))
        for _ in 0..<3 {
            #expect(try rehearsal.rehearse { try build([groups, teams], on: $0) } == fresh)
            #expect(throws: InputError.self) { try rehearsal.rehearse { try build([groups, broken], on: $0) } }
            #expect(try rehearsal.rehearse { try build([groups], on: $0) } == freshGroups)
        }
    }
}
