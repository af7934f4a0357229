import Foundation
import SeedModel
import SeedModelLoader
import SeedgenTestSupport
import Testing
@testable import SeedStore

/// `ObjectRows`, the one writer of Core Data SQL, on the cup model: keys, finds by natural key
/// within an entity tree, to-ones with their position companion, join rows, defaults and
/// required checks.
@Suite("ObjectRows: the one writer of Core Data SQL")
struct ObjectRowsTests {
    let directory: TemporaryDirectory
    let builder: StoreBuilder
    let layout: StoreLayout

    init() throws {
        directory = try TemporaryDirectory()
        let model = try ModelLoader.load(from: try directory.write(CupModel.contents, to: "Cup.xcdatamodel/contents"))
        layout = try StoreLayout(model: model)
        builder = try StoreBuilder(layout: layout, outputPath: directory.path("cup.sqlite"))
    }

    private func insert(_ entity: String, _ key: Int64, name: String) throws {
        let entityLayout = try #require(layout.entity(named: entity))
        try builder.objectRows.insert(entityLayout, primaryKey: key, values: [(layout.column(for: "name", of: entity)!, .text(name))])
    }

    @Test("reads back what it wrote: entity numbers, values, Z_OPT")
    func readsBackWhatItWrote() throws {
        defer { directory.remove() }
        let rows = builder.objectRows
        try insert("Coach", 1, name: "Löw")
        try insert("Player", 2, name: "Lahm")
        let human = try #require(layout.entity(named: "Human"))
        let name = try #require(layout.column(for: "name", of: "Human"))
        #expect(try rows.entityNumber(of: 1, in: human.table) == layout.entity(named: "Coach")!.number)
        #expect(try rows.values(of: 2, in: human.table, columns: [name, "Z_OPT"]) == [.text("Lahm"), .integer(1)])
        try rows.countChange(of: 2, in: human.table)
        #expect(try rows.values(of: 2, in: human.table, columns: ["Z_OPT"]) == [.integer(2)])
        #expect(try rows.values(of: 99, in: human.table, columns: [name]).isEmpty)
    }

    @Test("a to-one into an ordered to-many takes the next position per owner (2048, 3072, … as Core Data stores them), or the place given")
    func toOnePositions() throws {
        defer { directory.remove() }
        let rows = builder.objectRows
        try insert("Team", 1, name: "Polen")
        try insert("Team", 2, name: "Italien")
        for (key, name) in [(3, "A"), (4, "B"), (5, "C"), (6, "D")] { try insert("Player", Int64(key), name: name) }
        let human = try #require(layout.entity(named: "Human"))
        let team = try #require(layout.entity(named: "Team"))
        let columns = try #require(layout.toOneColumns(for: "team", of: "Player"))
        let order = try #require(columns.order, "Human.team's inverse Team.members is ordered: a Z_FOK_ column")
        let polen = ObjectRows.Row(primaryKey: 1, entityNumber: team.number)
        let italien = ObjectRows.Row(primaryKey: 2, entityNumber: team.number)
        try rows.setToOne(of: 3, in: human.table, columns, to: polen)
        try rows.setToOne(of: 4, in: human.table, columns, to: polen)
        try rows.setToOne(of: 5, in: human.table, columns, to: italien)
        try rows.setToOne(of: 6, in: human.table, columns, to: polen, place: 7)
        let positions = try [3, 4, 5, 6].map { try rows.values(of: Int64($0), in: human.table, columns: [columns.key, order]) }
        #expect(positions == [[.integer(1), .integer(2048)], [.integer(1), .integer(3072)], [.integer(2), .integer(2048)], [.integer(1), .integer(8192)]])
        #expect(try rows.destination(of: 5, in: human.table, columns) == 2)
        try rows.setToOne(of: 5, in: human.table, columns, to: nil)
        #expect(try rows.values(of: 5, in: human.table, columns: [columns.key, order]) == [.null, .null])
        #expect(try rows.rows(in: human.table, where: columns.key, is: .integer(1), among: human.subtreeNumbers).map(\.primaryKey) == [3, 4, 6])
    }

    @Test("join rows: added once, found from either side, removed")
    func joinRows() throws {
        defer { directory.remove() }
        let rows = builder.objectRows
        try insert("Team", 1, name: "Polen")
        try insert("Stadium", 1, name: "Warschau")
        try insert("Stadium", 2, name: "Breslau")
        let (join, teamIsFirst) = try #require(layout.joinTableSide(for: "venues", of: "Team"))
        func add(_ stadium: Int64) throws -> Bool {
            try rows.addJoinRow(join, first: teamIsFirst ? 1 : stadium, second: teamIsFirst ? stadium : 1, places: [])
        }
        #expect(try add(1) && add(2))
        #expect(try add(1) == false, "the same pair is one row")
        let stadium = try #require(layout.entity(named: "Stadium"))
        #expect(try rows.joinedRows(join, of: 1, inFirstColumn: teamIsFirst, destinationTable: stadium.table).map(\.primaryKey) == [1, 2])
        #expect(try rows.removeJoinRow(join, first: teamIsFirst ? 1 : 2, second: teamIsFirst ? 2 : 1))
        #expect(try rows.removeJoinRow(join, first: teamIsFirst ? 1 : 2, second: teamIsFirst ? 2 : 1) == false)
        #expect(try rows.joinedRows(join, of: 1, inFirstColumn: teamIsFirst, destinationTable: stadium.table).map(\.primaryKey) == [1])
    }

    @Test("defaults fill NULLs of one entity only, several columns in one pass; the first row missing a value is found, with the column")
    func defaultsAndRequiredValues() throws {
        defer { directory.remove() }
        let rows = builder.objectRows
        try insert("Coach", 1, name: "Löw")
        try insert("Player", 2, name: "Lahm")
        try insert("Player", 3, name: "Kahn")
        let human = try #require(layout.entity(named: "Human"))
        let player = try #require(layout.entity(named: "Player"))
        let number = try #require(layout.column(for: "number", of: "Player"))
        let height = try #require(layout.column(for: "height", of: "Player"))
        try rows.update(3, in: human.table, set: [(number, .integer(1))])
        try rows.update(2, in: human.table, set: [(height, .real(1.8))])
        let first = try rows.firstRow(in: human.table, ofEntity: player.number, whereAnyNull: [height, number])
        #expect(first?.primaryKey == 2 && first?.column == 1, "row 2 misses its number (the second column)")
        try rows.fillNulls(in: human.table, ofEntity: player.number, with: [(number, .integer(0)), (height, .real(2))])
        #expect(try rows.firstRow(in: human.table, ofEntity: player.number, whereAnyNull: [height, number]) == nil)
        #expect(try rows.values(of: 3, in: human.table, columns: [height]) == [.real(2)])
        #expect(try rows.values(of: 2, in: human.table, columns: [height]) == [.real(1.8)])
        #expect(try rows.values(of: 2, in: human.table, columns: [number]) == [.integer(0)])
        #expect(try rows.values(of: 3, in: human.table, columns: [number]) == [.integer(1)])
        #expect(try rows.values(of: 1, in: human.table, columns: [number]) == [.null], "a Coach row is not touched")
    }

    @Test("Z_MAX hands out keys per root table (of a finished store: a build writes Z_PRIMARYKEY last)")
    func primaryKeys() throws {
        defer { directory.remove() }
        let rows = ObjectRows(database: try Database(path: try builder.finish().path, mode: .readWrite), layout: layout)
        let human = try #require(layout.entity(named: "Human"))
        #expect(try rows.takePrimaryKey(forRoot: human) == 1)
        #expect(try rows.takePrimaryKey(forRoot: human) == 2)
        #expect(try rows.takePrimaryKey(forRoot: try #require(layout.entity(named: "Team"))) == 1)
    }
}
