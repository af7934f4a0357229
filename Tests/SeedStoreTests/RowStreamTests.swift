import Foundation
import SeedModel
import SeedgenTestSupport
import Testing
@testable import SeedStore

@Suite("Row stream and content digest pieces")
struct RowStreamTests {
    static let events = """
        <entity name="Event">
            <attribute name="latitude" optional="YES" attributeType="Double" defaultValueString="0.0"/>
            <attribute name="note" optional="YES" attributeType="String"/>
        </entity>
        """

    /// Streams `count` rows (several batches) through the builder's row stream.
    static func stream(_ builder: StoreBuilder, count: Int, note: (Int) -> String? = { "event \($0)" }) throws {
        let insert = try builder.prepare("INSERT INTO ZEVENT (Z_PK, Z_ENT, Z_OPT, ZLATITUDE, ZNOTE) VALUES (?, 1, 1, ?, ?)")
        var values: [SQLValue?] = [nil, nil]
        for pk in 1...count {
            values[0] = .real(Double(pk) / 4)
            values[1] = note(pk).map { .text($0) }
            try values.withUnsafeBufferPointer { try builder.rowStream.append(insert, primaryKey: Int64(pk), values: $0) }
        }
    }

    @Test("rows streamed over several batches arrive whole and in order, and give the same file as direct inserts")
    func streamedRows() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let model = try StoreFixture.model(Self.events, in: directory)
        let layout = try StoreLayout(model: model)
        let count = RowStream.batchSize * 3 + 17
        let streamedPath = directory.path("streamed.sqlite")
        let builder = try StoreBuilder(layout: layout, outputPath: streamedPath)
        try Self.stream(builder, count: count, note: { $0 % 3 == 0 ? nil : "event \($0)" })
        // A query in between flushes first: it sees every row appended so far.
        let countRows = try builder.prepare("SELECT count(*) FROM ZEVENT")
        #expect(try countRows.step() && countRows.value(at: 0) == .integer(Int64(count)))
        countRows.reset()
        let streamed = try builder.finish()

        let direct = try StoreFixture.build(model, at: directory.path("direct.sqlite")) { database in
            for pk in 1...count {
                let note = pk % 3 == 0 ? "NULL" : "'event \(pk)'"
                try database.execute("INSERT INTO ZEVENT (Z_PK, Z_ENT, Z_OPT, ZLATITUDE, ZNOTE) VALUES (\(pk), 1, 1, \(Double(pk) / 4), \(note))")
            }
        }
        #expect(streamed.rowCounts == ["Event": count])
        #expect(streamed.fileSHA256 == direct.fileSHA256)
        let database = try Database(path: streamedPath, mode: .readOnly)
        #expect(try database.rows("SELECT Z_PK, ZLATITUDE, ZNOTE FROM ZEVENT WHERE Z_PK IN (1, 3, \(count)) ORDER BY Z_PK") == [
            [.integer(1), .real(0.25), .text("event 1")],
            [.integer(3), .real(0.75), .null],
            [.integer(Int64(count)), .real(Double(count) / 4), .text("event \(count)")],
        ])
        #expect(try StoreVerifier(storePath: streamedPath, layout: layout).verify().isEmpty)
    }

    @Test("once the stream stops it holds none of the values it wrote: a big one is let go before the indexes and the seal")
    func writtenValuesLetGo() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let layout = try StoreLayout(model: StoreFixture.model(Self.events, in: directory))
        let builder = try StoreBuilder(layout: layout, outputPath: directory.path("streamed.sqlite"))
        let insert = try builder.prepare("INSERT INTO ZEVENT (Z_PK, Z_ENT, Z_OPT, ZLATITUDE, ZNOTE) VALUES (?, 1, 1, ?, ?)")
        var blob = [UInt8](repeating: 7, count: 1 << 16)
        let storage = blob.withUnsafeBufferPointer { $0.baseAddress }
        // The first row goes in a batch the writer thread writes, the last in the one `flush` writes.
        let last = RowStream.batchSize + 5
        for pk in 1...last {
            let values: [SQLValue?] = [.real(1), pk == 1 || pk == last ? .blob(blob) : nil]
            try values.withUnsafeBufferPointer { try builder.rowStream.append(insert, primaryKey: Int64(pk), values: $0) }
        }
        try builder.rowStream.flush()
        builder.rowStream.stopWriter()
        blob[0] = 8  // copied first if anything else still holds its storage
        #expect(blob.withUnsafeBufferPointer { $0.baseAddress } == storage, "a batch still holds the written blob")
    }

    @Test("a row SQLite refuses on the writer thread is reported with its Z_PK, and nothing is written")
    func failureSurfaces() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let model = try StoreFixture.model(Self.events, in: directory)
        let path = directory.path("store.sqlite")
        let builder = try StoreBuilder(layout: try StoreLayout(model: model), outputPath: path)
        try Self.stream(builder, count: RowStream.batchSize + 10)
        let insert = try builder.prepare("INSERT INTO ZEVENT (Z_PK, Z_ENT, Z_OPT) VALUES (?, 1, 1)")
        try [SQLValue?]().withUnsafeBufferPointer { try builder.rowStream.append(insert, primaryKey: 5, values: $0) }
        let error = try #require(throws: SQLiteError.self) { try builder.finish() }
        #expect(error.message.contains("UNIQUE constraint failed: ZEVENT.Z_PK"))
        #expect(error.message.contains("Z_PK 5"))
        // Codes can be matched: the extended SQLITE_CONSTRAINT_PRIMARYKEY is a constraint failure.
        #expect(error.code.primary == .constraint && error.code != .constraint, "\(error.code)")
        #expect(!FileManager.default.fileExists(atPath: path))
        #expect(StoreTestSupport.listing(directory.url).filter { !$0.hasPrefix("model-") }.isEmpty)
    }

    @Test("a table of several digest pieces: verify is clean, and an edit in a later piece is caught")
    func digestPieces() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let model = try StoreFixture.model(Self.events, in: directory)
        let layout = try StoreLayout(model: model)
        let path = directory.path("store.sqlite")
        // Keys 1…70000 and one far away: three pieces, the last holding a single row.
        let builder = try StoreBuilder(layout: layout, outputPath: path)
        try Self.stream(builder, count: 70_000)
        try builder.execute("INSERT INTO ZEVENT (Z_PK, Z_ENT, Z_OPT, ZNOTE) VALUES (9000000000, 1, 1, 'far')")
        let summary = try builder.finish()
        #expect(summary.rowCounts == ["Event": 70_001])
        let database = try Database(path: path, mode: .readOnly)
        let plan = try ContentDigest.Plan(database)
        #expect(plan.pieces.filter { $0.range != nil }.map { $0.range!.lower } == [0, 65_536, 8_999_993_344])
        #expect(try ContentDigest.compute(database) == summary.contentDigest)
        #expect(try StoreVerifier(storePath: path, layout: layout).verify().isEmpty)

        try StoreTestSupport.damage(path, "UPDATE ZEVENT SET ZLATITUDE = 1 WHERE Z_PK = 69999")
        #expect(try StoreVerifier(storePath: path, layout: layout, asBuilt: true).verify().map(\.check) == ["content-digest", "seal"])
    }
}
