import Foundation
import SeedImport
import SeedStore
import SeedgenTestSupport
import Testing

/// `StoreRehearsal` (the fuzz targets' way to run thousands of imports): each rehearsed build
/// starts on a store as fresh as a new one's, whatever the ones before it wrote or threw.
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

    @Test("a rehearsed build sees what the first on a new scratch database sees, after builds that wrote, made indexes and threw")
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
        // What rehearsals on new scratch databases see (a builder's own `completeStore` makes
        // the store elsewhere: its scratch database never gets the indexes).
        func firstRehearsal(_ paths: [String], _ name: String) throws -> [String] {
            try StoreRehearsal(layout: run.layout, path: run.directory.path(name)).rehearse { try build(paths, on: $0) }
        }
        let fresh = try firstRehearsal([groups, teams], "fresh.sqlite")
        let freshGroups = try firstRehearsal([groups], "fresh-groups.sqlite")
        #expect(fresh.contains { $0.hasPrefix("ZTEAM: ") } && fresh.contains { $0.contains("CREATE INDEX") })

        let rehearsal = try StoreRehearsal(layout: run.layout, path: run.directory.path("rehearsal.sqlite"))
        for _ in 0..<3 {
            #expect(try rehearsal.rehearse { try build([groups, teams], on: $0) } == fresh)
            #expect(throws: InputError.self) { try rehearsal.rehearse { try build([groups, broken], on: $0) } }
            #expect(try rehearsal.rehearse { try build([groups], on: $0) } == freshGroups)
        }
    }
}
