import Foundation

/// Writes plain INSERT rows on a second thread while the caller produces the next ones.
///
/// Rows are gathered in batches; a full batch goes to a writer thread that binds and steps
/// them, while the caller fills the other batch (two cores: parsing and converting on one,
/// SQLite on the other). `flush` waits for the writer and writes what is left on the calling
/// thread: call it before anything else touches the database (a query, an update, another
/// statement), so the connection is only ever used by one thread at a time. An import that
/// queries between rows (merging by key, linking) thus flushes a few rows at a time on its own
/// thread, and the writer thread only starts once a batch fills up without a query in between.
/// Rows are written in the order they were appended (but a held-back table's: `holdBack`); the
/// file is the same as with direct inserts. While the rows come in the store's order, the writer
/// also digests them for the content digest (`streamedPieces`).
///
/// Owned by a `StoreBuilder` (`rowStream`); its `prepare`, `execute` and `finish` flush it.
package final class RowStream: @unchecked Sendable {
    /// Rows per batch: large enough that a hand-over is rare, small enough to stay in cache.
    static let batchSize = 4096

    /// The rows of one batch, kept in flat arrays that are reused.
    private final class Batch {
        struct Row {
            var statement: Int32
            var valueCount: Int32
            var primaryKey: Int64
        }
        // One thread at a time uses a batch (handed over under `condition`); the dynamic
        // exclusivity checks, per thread, could not tell anyway and cost a call per row.
        @exclusivity(unchecked) var rows: [Row] = []
        /// The rows' values: the first `valueCount`; those after are an earlier batch's, each
        /// released when a new value takes its place (emptying the array released them through
        /// the runtime's generic destroy, a call per value).
        @exclusivity(unchecked) private(set) var values: [SQLValue?] = []
        @exclusivity(unchecked) private(set) var valueCount = 0
        /// The statements rows refer to (a snapshot: the caller may add more meanwhile).
        @exclusivity(unchecked) var statements: [Statement] = []
        /// How each statement fills its table, for the content digest (nil: not known).
        @exclusivity(unchecked) var shapes: [ContentDigest.RowShape?] = []
        /// Whether every row appended up to this batch's last came in the store's order.
        @exclusivity(unchecked) var inStoreOrder = true

        init() {
            rows.reserveCapacity(RowStream.batchSize)
        }

        func append(_ value: SQLValue?) {
            if valueCount < values.count {
                values[valueCount] = value
            } else {
                values.append(value)
            }
            valueCount += 1
        }

        func clear() {
            rows.removeAll(keepingCapacity: true)
            valueCount = 0
            statements = []
            shapes = []
        }

        /// Lets go of the values an emptied batch still holds (once the stream stops: a big
        /// value is not kept through the indexes and the seal).
        func releaseValues() {
            guard rows.isEmpty else { return }
            values = []
        }
    }

    @exclusivity(unchecked) private var statements: [Statement] = []
    @exclusivity(unchecked) private var shapes: [ContentDigest.RowShape?] = []
    @exclusivity(unchecked) private var lastStatement: ObjectIdentifier?
    @exclusivity(unchecked) private var lastTarget: Int32 = 0
    /// The store place of the last statement's table (-1: not a registered insert).
    @exclusivity(unchecked) private var lastStatementPlace = -1
    /// How each registered insert fills its table, and the table's place in the store
    /// (`register`); rows of other statements are out of the store's order.
    @exclusivity(unchecked) private var registered: [ObjectIdentifier: ContentDigest.RowShape] = [:]
    @exclusivity(unchecked) private var lastTablePlace = -1
    @exclusivity(unchecked) private var lastPrimaryKey: Int64 = 0
    /// Whether every row so far came in the store's order: whole tables one after another in
    /// the order of their places, each table's rows by ascending `Z_PK`. Only then are the
    /// pages SQLite wrote the pages a copy of the finished store would hold (`StoreBuilder`).
    @exclusivity(unchecked) package private(set) var inStoreOrder = true
    /// Rows appended so far.
    @exclusivity(unchecked) package private(set) var rowsAppended = 0
    /// The content digest's pieces of the rows written, in the store's order; fed by whichever
    /// thread writes (one at a time). Read once the writer has stopped.
    let streamedPieces = ContentDigest.StreamedPieces()
    /// The table place whose rows are held back (`holdBack`), and the rows.
    @exclusivity(unchecked) private var heldPlace: Int?
    @exclusivity(unchecked) private var heldRows: [(target: Int32, primaryKey: Int64, start: Int, count: Int)] = []
    @exclusivity(unchecked) private var heldValues: [SQLValue?] = []
    @exclusivity(unchecked) private var heldBytes = 0
    @exclusivity(unchecked) private var holdingRefused = false
    /// The most bytes of values held back (16 MiB; lowered by tests): past it, the rows are
    /// written and no more are held.
    package var heldBytesLimit = 16 << 20
    /// The batch being filled by the caller.
    @exclusivity(unchecked) private var filling = Batch()

    // Shared with the writer thread, under `condition`.
    private let condition = NSCondition()
    private var handedOver: Batch?
    private var spare: Batch? = Batch()
    private var failure: SQLiteError?
    private var writerRunning = false
    private var stopping = false
    private let writerExited = DispatchSemaphore(value: 0)

    /// A stream that digests its rows only when `digestingRows`: the store may be written in place.
    init(digestingRows: Bool = false) {
        if !digestingRows { streamedPieces.invalidate() }
    }

    deinit {
        stopWriter()
    }

    /// Says that `statement` inserts into the table at `shape.tablePlace` in the store's order
    /// (for `inStoreOrder`), filling its columns as `shape` says (for `streamedPieces`).
    func register(_ statement: Statement, shape: ContentDigest.RowShape) {
        registered[ObjectIdentifier(statement)] = shape
    }

    /// Holds back the rows of the table at `place` until the next `flush`, which writes them by
    /// ascending `Z_PK`: objects an import defines after references reserved their keys come
    /// in the order of their definitions, their keys in the order of the references. Written
    /// sorted, after the rows before them, they can still be in the store's order. One table
    /// at a time, up to `heldBytesLimit`.
    func holdBack(tablePlace place: Int) throws(SQLiteError) {
        guard heldPlace != place, !holdingRefused else { return }
        try releaseHeld()
        heldPlace = place
    }

    /// Appends one row: `statement` gets `primaryKey` as parameter 1 and `values` as
    /// parameters 2, 3, ... (nil stays NULL). Throws a failure of an earlier batch.
    package func append(_ statement: Statement, primaryKey: Int64,
                       values: UnsafeBufferPointer<SQLValue?>) throws(SQLiteError) {
        let identity = ObjectIdentifier(statement)
        if identity != lastStatement {
            lastStatement = identity
            lastStatementPlace = registered[identity]?.tablePlace ?? -1
            if let index = statements.firstIndex(where: { $0 === statement }) {
                lastTarget = Int32(index)
            } else {
                statements.append(statement)
                shapes.append(registered[identity])
                lastTarget = Int32(statements.count - 1)
            }
        }
        if heldPlace != nil && lastStatementPlace == heldPlace {
            return try hold(lastTarget, primaryKey: primaryKey, values: values)
        }
        try enqueue(lastTarget, place: lastStatementPlace, primaryKey: primaryKey, values: values)
    }

    /// Puts a row into the batch being filled, noting whether it keeps the store's order.
    private func enqueue(_ target: Int32, place: Int, primaryKey: Int64, values: UnsafeBufferPointer<SQLValue?>) throws(SQLiteError) {
        if place != lastTablePlace {
            if place < lastTablePlace || place < 0 {
                inStoreOrder = false
            } else {
                (lastTablePlace, lastPrimaryKey) = (place, 0)
            }
        }
        if primaryKey <= lastPrimaryKey { inStoreOrder = false }
        lastPrimaryKey = primaryKey
        rowsAppended += 1
        filling.rows.append(Batch.Row(statement: target, valueCount: Int32(values.count), primaryKey: primaryKey))
        // One at a time: `append(contentsOf:)` copied through the runtime's generic array copy,
        // a call through the value witness per value.
        for value in values { filling.append(value) }
        if filling.rows.count >= Self.batchSize {
            try handOver()
        }
    }

    /// Keeps a row of the held-back table; past `heldBytesLimit` they are all written.
    private func hold(_ target: Int32, primaryKey: Int64, values: UnsafeBufferPointer<SQLValue?>) throws(SQLiteError) {
        heldRows.append((target, primaryKey, heldValues.count, values.count))
        for value in values {
            heldValues.append(value)
            heldBytes += MemoryLayout<SQLValue?>.stride + (value?.payloadByteCount ?? 0)
        }
        if heldBytes > heldBytesLimit {
            holdingRefused = true
            try releaseHeld()
            heldPlace = nil
        }
    }

    /// Writes the held-back rows into the stream by ascending `Z_PK`.
    private func releaseHeld() throws(SQLiteError) {
        guard let place = heldPlace, !heldRows.isEmpty else { return }
        let rows = heldRows.sorted { $0.primaryKey < $1.primaryKey }
        let values = heldValues
        (heldRows, heldValues, heldBytes) = ([], [], 0)
        try values.withUnsafeBufferPointer { (all) throws(SQLiteError) in
            for row in rows {
                try enqueue(row.target, place: place, primaryKey: row.primaryKey, values: UnsafeBufferPointer(rebasing: all[row.start..<row.start + row.count]))
            }
        }
    }

    /// Waits until every row appended so far is written; throws the first row that failed.
    package func flush() throws(SQLiteError) {
        try releaseHeld()
        condition.lock()
        while handedOver != nil { condition.wait() }
        let earlier = failure
        condition.unlock()
        if let earlier { throw earlier }
        if !filling.rows.isEmpty {
            defer { filling.clear() }
            (filling.statements, filling.shapes, filling.inStoreOrder) = (statements, shapes, inStoreOrder)
            if let failed = write(filling) { throw failed }
        }
    }

    /// Stops the writer thread (after `flush`); appending starts it again.
    func stopWriter() {
        condition.lock()
        let running = writerRunning
        stopping = true
        condition.broadcast()
        condition.unlock()
        if running { writerExited.wait() }
        condition.lock()
        writerRunning = false
        stopping = false
        filling.releaseValues()
        spare?.releaseValues()
        condition.unlock()
    }

    private func handOver() throws(SQLiteError) {
        condition.lock()
        while handedOver != nil { condition.wait() }
        if let failure {
            condition.unlock()
            throw failure
        }
        (filling.statements, filling.shapes, filling.inStoreOrder) = (statements, shapes, inStoreOrder)
        handedOver = filling
        filling = spare ?? Batch()
        spare = nil
        let start = !writerRunning
        writerRunning = true
        condition.broadcast()
        condition.unlock()
        if start {
            Thread.detachNewThread { [self] in runWriter() }
        }
    }

    private func runWriter() {
        condition.lock()
        while true {
            while handedOver == nil && !stopping { condition.wait() }
            guard let batch = handedOver else { break }
            let skip = failure != nil
            condition.unlock()
            let failed = skip ? nil : write(batch)
            batch.clear()
            condition.lock()
            if let failed, failure == nil { failure = failed }
            spare = batch
            handedOver = nil
            condition.broadcast()
        }
        condition.unlock()
        writerExited.signal()
    }

    /// Binds and steps the rows of `batch`, and digests them while they keep the store's
    /// order; returns the first failure.
    private func write(_ batch: Batch) -> SQLiteError? {
        if !batch.inStoreOrder { streamedPieces.invalidate() }
        return batch.values.withUnsafeBufferPointer { values -> SQLiteError? in
            var offset = 0
            for row in batch.rows {
                let statement = batch.statements[Int(row.statement)]
                do throws(SQLiteError) {
                    try statement.bind(row.primaryKey, at: 1)
                    try statement.run(binding: UnsafeBufferPointer(rebasing: values[offset..<offset + Int(row.valueCount)]), from: 2)
                } catch {
                    statement.reset()
                    streamedPieces.invalidate()
                    return SQLiteError(code: error.code, message: "\(error.message) (writing the row with Z_PK \(row.primaryKey))", sql: error.sql)
                }
                if streamedPieces.isValid {
                    if let shape = batch.shapes[Int(row.statement)] {
                        streamedPieces.feed(shape, primaryKey: row.primaryKey, values: UnsafeBufferPointer(rebasing: values[offset..<offset + Int(row.valueCount)]))
                    } else {
                        streamedPieces.invalidate()
                    }
                }
                offset += Int(row.valueCount)
            }
            return nil
        }
    }
}
