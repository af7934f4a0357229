import SeedgenTestSupport
import Testing
@testable import SeedStore

/// `Statement.run(binding:from:)` binds a big blob where it lies for the run instead of copying
/// it: every row must still store exactly what it was given, nils as NULL, whatever mix of big
/// and small values it holds, and a failure leaves nothing bound.
@Suite("Statement: binding a row and running it")
struct StatementBindingTests {
    static func value(_ random: inout SplitMix64, _ row: Int, _ column: Int) -> SQLValue? {
        switch random.next() % 6 {
        case 0: return nil
        case 1: return .integer(Int64(bitPattern: random.next()))
        case 2: return .text("row \(row) column \(column) é")
        case 3: return .blob((0..<Int(random.next() % 100)).map { _ in UInt8(truncatingIfNeeded: random.next()) })
        default:
            // Either side of the size that is borrowed.
            let size = Statement.borrowedBlobSize + Int(random.next() % 3) - 1 + (random.next() % 2 == 0 ? 0 : 40_000)
            return .blob([UInt8](repeating: UInt8(truncatingIfNeeded: row &+ column), count: size))
        }
    }

    @Test("random rows of nils, numbers, text, small blobs and blobs around and past the borrowed size read back as given")
    func rowsReadBack() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let database = try Database(path: directory.path("rows.sqlite"), mode: .create)
        try database.execute("CREATE TABLE T (ID INTEGER PRIMARY KEY, A, B, C, D)")
        let insert = try database.prepare("INSERT INTO T (ID, A, B, C, D) VALUES (?, ?, ?, ?, ?)")
        var random = SplitMix64(seed: 0xB10B)
        var given: [[SQLValue]] = []
        for row in 1...PropertyCases.count(makeTest: 60) {
            let values = (0..<4).map { Self.value(&random, row, $0) }
            try insert.bind(Int64(row), at: 1)
            try values.withUnsafeBufferPointer { try insert.run(binding: $0, from: 2) }
            given.append([.integer(Int64(row))] + values.map { $0 ?? .null })
        }
        #expect(try database.rows("SELECT ID, A, B, C, D FROM T ORDER BY ID") == given)
    }

    @Test("a failure after a borrowed blob throws and leaves the statement unbound and ready: the next run stores only its own values")
    func failureUnbinds() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let database = try Database(path: directory.path("rows.sqlite"), mode: .create)
        try database.execute("CREATE TABLE T (ID INTEGER PRIMARY KEY, A, B)")
        let insert = try database.prepare("INSERT INTO T (ID, A, B) VALUES (?, ?, ?)")
        let big: SQLValue? = .blob([UInt8](repeating: 7, count: Statement.borrowedBlobSize * 2))
        // A third value has no parameter: SQLite refuses its binding after the blob is bound.
        try insert.bind(Int64(1), at: 1)
        let tooMany: [SQLValue?] = [big, .integer(1), .integer(2)]
        #expect(throws: SQLiteError.self) { try tooMany.withUnsafeBufferPointer { try insert.run(binding: $0, from: 2) } }
        try insert.bind(Int64(2), at: 1)
        let second: [SQLValue?] = [nil, .text("b")]
        try second.withUnsafeBufferPointer { try insert.run(binding: $0, from: 2) }
        #expect(try database.rows("SELECT ID, A, B FROM T") == [[.integer(2), .null, .text("b")]])
    }
}
