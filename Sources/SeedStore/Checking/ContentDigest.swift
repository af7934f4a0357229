import Foundation

/// SHA-256 over a store's logical content: its schema text and every row of every table in a
/// canonical order and encoding, the `Z_METADATA` row left out (it holds the digest).
///
/// Independent of page layout and insert order, so `verify` and the installer can recompute
/// it from the file and catch an edited or damaged row.
enum ContentDigest {
    /// The digest, and the rows of each entity number (counted on the way).
    struct Summary: Sendable {
        var digest: String
        var rowsByEntity: [Int: Int]
    }

    /// Entity tables are digested in pieces of this many `Z_PK` values, each piece on its own
    /// (so two threads can share the work); the pieces' digests are then digested in order.
    static let pieceSpan: Int64 = 1 << 16

    /// Rows of one table in canonical order: all of them, or one `Z_PK` range of an entity table.
    struct Piece: Sendable {
        var table: Int
        var query: String
        var range: (lower: Int64, upper: Int64)?
        var isEntityTable: Bool
        var columns: Int
    }

    /// What a piece holds.
    struct PieceResult: Sendable {
        var digest: [UInt8]
        var rowsByEntity: [Int: Int]
    }

    /// The schema part of the digest and the pieces of every table, in order.
    struct Plan: Sendable {
        var schema: [[String]]
        var tables: [(name: String, columns: Int)]
        var pieces: [Piece]

        init(_ database: Database) throws(SQLiteError) {
            schema = try Self.schema(of: database)
            let names = try database.rows(
                "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name")
                .compactMap { $0.first?.text }
            tables = []
            pieces = []
            for table in names where table != "Z_METADATA" {
                let columns = try database.rows("SELECT name, pk FROM pragma_table_info(?) ORDER BY cid", [.text(table)])
                let keyColumns = columns.filter { ($0[1].integer ?? 0) > 0 }
                    .sorted { ($0[1].integer ?? 0) < ($1[1].integer ?? 0) }
                let orderColumns = (keyColumns.isEmpty ? columns : keyColumns).compactMap { $0[0].text }
                let order = orderColumns.map(Database.quote).joined(separator: ", ")
                let isEntityTable = columns.count >= 2 && columns[0][0].text == "Z_PK" && columns[1][0].text == "Z_ENT"
                let index = tables.count
                tables.append((table, columns.count))
                let all = "SELECT * FROM \(Database.quote(table)) ORDER BY \(order)"
                guard isEntityTable, orderColumns == ["Z_PK"] else {
                    pieces.append(Piece(table: index, query: all, range: nil, isEntityTable: isEntityTable, columns: columns.count))
                    continue
                }
                // One piece per span of Z_PK values that holds rows, found by seeking from the
                // lowest (so how sparse the keys are does not change the digest).
                let query = "SELECT * FROM \(Database.quote(table)) WHERE Z_PK BETWEEN ? AND ? ORDER BY Z_PK"
                let next = "SELECT MIN(Z_PK) FROM \(Database.quote(table)) WHERE Z_PK >= ?"
                var start = try database.scalar("SELECT MIN(Z_PK) FROM \(Database.quote(table))")?.integer
                while let key = start {
                    let lower = key >= 0 ? key / pieceSpan * pieceSpan : -((-(key + 1)) / pieceSpan + 1) * pieceSpan
                    let (upper, overflow) = lower.addingReportingOverflow(pieceSpan - 1)
                    pieces.append(Piece(table: index, query: query, range: (lower, overflow ? .max : upper),
                                        isEntityTable: true, columns: columns.count))
                    if overflow || upper == .max { break }
                    start = try database.scalar(next, [.integer(upper + 1)])?.integer
                }
            }
        }

        /// The schema part: every schema row that has SQL, in a canonical order.
        static func schema(of database: Database) throws(SQLiteError) -> [[String]] {
            try database.rows("SELECT type, name, tbl_name, sql FROM sqlite_master WHERE sql IS NOT NULL ORDER BY type, name")
                .map { row in row.map { $0.text ?? "" } }
        }

        /// Digests one piece.
        func digest(_ piece: Piece, on database: Database) throws(SQLiteError) -> PieceResult {
            var rowsByEntity: [Int: Int] = [:]
            var digest = BufferedDigest()
            let statement = try database.prepare(piece.query)
            if let range = piece.range {
                try statement.bind([.integer(range.lower), .integer(range.upper)])
            }
            while try statement.step() {
                digest.feed(byte: 0x52)  // "R"
                let entity = statement.feedRow(columns: piece.columns, into: &digest)
                if piece.isEntityTable { rowsByEntity[Int(entity), default: 0] += 1 }
            }
            return PieceResult(digest: digest.finalizeBytes(), rowsByEntity: rowsByEntity)
        }

        /// The store's digest from the results of every piece (in `pieces` order).
        func combine(_ results: [PieceResult]) -> Summary {
            var digest = BufferedDigest()
            digest.feed("seedgen-content-digest-2")
            for row in schema {
                digest.feed("S")
                for value in row { digest.feed(value) }
            }
            var rowsByEntity: [Int: Int] = [:]
            var position = 0
            for (index, table) in tables.enumerated() {
                digest.feed("T")
                digest.feed(table.name)
                digest.feed(count: table.columns)
                while position < pieces.count && pieces[position].table == index {
                    digest.feed(byte: 0x50)  // "P"
                    results[position].digest.withUnsafeBytes { digest.feed($0) }
                    rowsByEntity.merge(results[position].rowsByEntity, uniquingKeysWith: +)
                    position += 1
                }
            }
            return Summary(digest: digest.finalize(), rowsByEntity: rowsByEntity)
        }
    }

    /// SHA-256 over every table's rows, pieces in canonical order, the schema first:
    /// independent of page layout and insert order.
    static func compute(_ database: Database) throws(SQLiteError) -> String {
        try summarize(database).digest
    }

    static func summarize(_ database: Database) throws(SQLiteError) -> Summary {
        let plan = try Plan(database)
        var results: [PieceResult] = []
        for piece in plan.pieces { results.append(try plan.digest(piece, on: database)) }
        return plan.combine(results)
    }

    /// Computes a summary on a second thread and connection while the caller does other
    /// work; the caller then helps with the pieces that are left (`finish`).
    final class Job: @unchecked Sendable {
        private let path: String
        private let plan: Plan
        private let lock = NSLock()
        private var results: [PieceResult?]
        private var nextPiece = 0
        private var failure: Error?
        private let helperDone = DispatchSemaphore(value: 0)

        /// A job over the database at `path`, planned on `database` (a connection to it). The
        /// pieces of a table that `streamed` digested as its rows were written are not read,
        /// when they are exactly the pieces the plan finds.
        init(path: String, database: Database, streamed: StreamedPieces? = nil) throws(SQLiteError) {
            self.path = path
            let plan = try Plan(database)
            self.plan = plan
            var results = [PieceResult?](repeating: nil, count: plan.pieces.count)
            for (table, pieces) in streamed.flatMap({ $0.isValid ? $0.pieces : nil }) ?? [:] {
                guard let number = plan.tables.firstIndex(where: { $0.name == table }) else { continue }
                let planned = plan.pieces.indices.filter { plan.pieces[$0].table == number }
                guard planned.map({ plan.pieces[$0].range?.lower }) == pieces.map(\.lower) else { continue }
                for (index, piece) in zip(planned, pieces) { results[index] = piece.result }
            }
            self.results = results
            streamedPieceCount = results.count { $0 != nil }
        }

        /// How many pieces were taken from the rows as they were written, not read.
        let streamedPieceCount: Int

        func start() {
            Thread.detachNewThread { [self] in
                work()
                helperDone.signal()
            }
        }

        /// Takes pieces until none are left, on a connection of its own.
        private func work() {
            do {
                let database = try Database(path: path, mode: .readOnly)
                while let index = lock.withLock({ () -> Int? in
                    while nextPiece < plan.pieces.count && results[nextPiece] != nil { nextPiece += 1 }
                    guard failure == nil, nextPiece < plan.pieces.count else { return nil }
                    nextPiece += 1
                    return nextPiece - 1
                }) {
                    let result = try plan.digest(plan.pieces[index], on: database)
                    lock.withLock { results[index] = result }
                }
            } catch {
                lock.withLock { if failure == nil { failure = error } }
            }
        }

        /// Helps with the pieces left and waits for the helper thread: nothing is read after
        /// it (a failure is thrown by `finish`).
        func readAll() {
            work()
            joinHelper()
        }

        /// Helps with the pieces left, waits for the helper thread, and combines, with the
        /// schema of `schemaSource` when given: the rows are a scratch database's, the schema
        /// (its indexes) that of the store built from it.
        func finish(schemaOf schemaSource: Database? = nil) throws -> Summary {
            work()
            joinHelper()
            var plan = plan
            if let schemaSource { plan.schema = try Plan.schema(of: schemaSource) }
            return try lock.withLock { () throws -> Summary in
                if let failure { throw failure }
                return plan.combine(results.map { $0! })
            }
        }

        /// Stops handing out pieces and waits for the helper thread.
        func abandon() {
            lock.withLock { nextPiece = plan.pieces.count }
            joinHelper()
        }

        private func joinHelper() {
            helperDone.wait()
            helperDone.signal()  // a second wait returns at once
        }
    }
}
