import Foundation
import SystemPackage
import SeedModel

/// Writes a store in Core Data's layout, atomically and reproducibly.
///
/// Rows go into a scratch database beside the output; `finish` records `Z_MAX`, the content
/// digest and the metadata, syncs the store and renames it over the output. Until then the
/// output path is untouched, and a builder that is dropped without `finish` leaves nothing
/// behind. The store is the scratch database itself when its pages are already those of a copy
/// (`writesInPlace`); otherwise `VACUUM INTO` copies it: one canonical file whatever the insert order.
public final class StoreBuilder {
    /// The layout being written.
    public let layout: StoreLayout
    /// Where the finished store goes.
    public let outputPath: String
    package let database: Database
    /// Plain inserts written on a second thread; see `RowStream`.
    package let rowStream: RowStream
    /// Every other statement on the objects' rows (finds, updates, relationships); each waits
    /// for the row stream first.
    package let objectRows: ObjectRows
    /// The most bytes SQLite takes in one row (`SQLITE_LIMIT_LENGTH`, 1,000,000,000 unless
    /// lowered): an importer refuses a bigger object where it is given, before the row stream
    /// writes it on its own thread (where the failure would surface at a later object).
    /// (Read for every row without an exclusivity check: set only before rows are given.)
    @exclusivity(unchecked) package private(set) var rowLengthLimit = 0
    /// The scratch database's file; nil for a rehearsal's builder.
    private let scratchPath: String?
    private var finished = false
    /// The build-time keys that named objects (entity name -> attribute names), recorded in
    /// the metadata (`org.seedgen.keys`) for `seedgen diff`; none by default.
    package var buildKeys: [String: [String]] = [:]
    /// What a build's temporaries beside the output are named for: the scratch database, the copy.
    static let scratchPurpose = "seedgen-scratch", copyPurpose = "seedgen-tmp"
    /// Both (what a dead or interrupted build leaves).
    package static let temporaryPurposes = [scratchPurpose, copyPurpose]
    /// The source identifiers (`seedgen:id`, `@id`) the build gave objects, with each object's
    /// `Z_ENT` and `Z_PK`, kept in the seed (`SeedRecord.identifiersTable`): the record of an
    /// installed store names an object without a key by its identifier, so a later seed that
    /// gives it the same identifier updates it.
    package var sourceIdentifiers: [(entity: Int, primaryKey: Int64, identifier: String)] = []
    /// Whether the seed carries its packed record (`SeedRecord.pack`, ten bytes an object;
    /// `seedgen build --updatable`), so that an install to be updated is a copy: the record is
    /// made from the finished rows, as an install would make it, and the metadata says the
    /// record names objects within their owners. Off by default: a seed only copied carries none.
    package var recordsSeed = false
    /// Whether `completeStore` ran (or started: it is not run twice).
    private var completed = false
    /// Whether the scratch database can become the store without a copy: its layout has no join
    /// table and no table constraint (their pages would come between or after the rows'; the
    /// indexes come after every row either way), and it was made with Core Data's auto-vacuum
    /// level. `completeStore` also needs the rows in the store's order.
    private let writesInPlace: Bool

    /// What `finish` wrote.
    public struct Summary: Sendable {
        /// The output path.
        public var path: String
        /// SHA-256 (hex) of the output file.
        public var fileSHA256: String
        /// The store's content digest (also in its metadata).
        public var contentDigest: String
        /// Rows per entity name.
        public var rowCounts: [String: Int]
        /// Whether the scratch database became the store (written once), rather than a copy of it.
        package var writtenInPlace: Bool
        /// How many pieces of the content digest were digested as their rows were written (the
        /// others were read back).
        package var streamedDigestPieces: Int
    }

    /// Starts a store for `layout` that will be written to `outputPath`.
    public convenience init(layout: StoreLayout, outputPath: String) throws {
        let directory = URL(fileURLWithPath: outputPath).deletingLastPathComponent().path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw DurableFile.Failure(operation: "write into missing directory", path: directory, errno: .noSuchFileOrDirectory)
        }
        try DurableFile.requireWritableDestination(outputPath)
        // What killed builds left beside the output (scratch databases, their journals, copies).
        DurableFile.removeDeadTemporaries(beside: outputPath, purposes: Self.temporaryPurposes)
        let scratchPath = DurableFile.temporaryPath(beside: outputPath, purpose: Self.scratchPurpose)
        let database = try Database(path: scratchPath, mode: .create)
        do {
            try Self.startStore(of: layout, in: database, inPlace: Self.canWriteInPlace(layout))
        } catch {
            DurableFile.removeIfPresent(scratchPath)
            throw error
        }
        self.init(layout: layout, outputPath: outputPath, database: database, scratchPath: scratchPath)
    }

    /// A builder on `database`, which holds the layout's empty tables in an open transaction.
    /// Without `scratchPath` (a `StoreRehearsal`) it can be rolled back, never finished.
    init(layout: StoreLayout, outputPath: String, database: Database, scratchPath: String?) {
        self.layout = layout
        self.outputPath = outputPath
        self.database = database
        self.scratchPath = scratchPath
        writesInPlace = scratchPath != nil && Self.canWriteInPlace(layout)
        rowStream = RowStream(digestingRows: writesInPlace)
        self.objectRows = ObjectRows(database: database, layout: layout, rowStream: rowStream)
        rowLengthLimit = database.lengthLimit()
    }

    /// Gives `database` the layout's tables (not its indexes: `completeStore`) and the seed's
    /// model table, inside a transaction left open: importers write inside it; `finish` fills
    /// `Z_PRIMARYKEY` and the model table. A build needs no journal (a failed one is deleted);
    /// a rehearsal's is in memory, so that it can be rolled back. A store written `inPlace` has
    /// Core Data's auto-vacuum level from the start; a copy gets it from `VACUUM INTO`, and its
    /// scratch database goes without (cheaper inserts).
    static func startStore(of layout: StoreLayout, in database: Database, rollingBack: Bool = false, inPlace: Bool = false) throws(SQLiteError) {
        try database.execute("""
            PRAGMA page_size = 4096; PRAGMA encoding = 'UTF-8'; \(inPlace ? "PRAGMA auto_vacuum = INCREMENTAL;" : "")
            PRAGMA journal_mode = \(rollingBack ? "MEMORY" : "OFF"); PRAGMA synchronous = OFF;
            """)
        try database.execute("BEGIN")
        // Tables now, indexes in the store after the rows (`completeStore`): cheaper than keeping them up to date.
        for statement in layout.schema where !isIndex(statement) { try database.execute(statement) }
        try database.execute(SeedRecord.createModelTableSQL)
    }

    /// Whether a store of `layout` can be written in place (`writesInPlace`).
    private static func canWriteInPlace(_ layout: StoreLayout) -> Bool {
        layout.joinTables.isEmpty && layout.tables.allSatisfy(\.constraints.isEmpty)
    }

    /// Creates the layout's indexes in the scratch database, in the layout's order: a
    /// rehearsal's `completeStore` (a build creates them in the store, `completeStore`).
    private func createIndexes(in database: Database, sorterThreads: Int = 2) throws(SQLiteError) {
        // Sorter threads: an index is built on both cores (the same index, sorted the same)
        // unless the content digest takes the other.
        try database.execute("PRAGMA threads = \(sorterThreads)")
        for statement in layout.schema where Self.isIndex(statement) { try database.execute(statement) }
    }

    /// Holds back the rows of `table` until they are needed, to write them by ascending `Z_PK`
    /// (`RowStream.holdBack`): an importer defining objects whose keys references reserved.
    package func holdBackRows(of table: String) throws(SQLiteError) {
        guard let place = layout.tables.firstIndex(where: { $0.name == table }) else { return }
        try rowStream.holdBack(tablePlace: place)
    }

    /// Lowers SQLite's bound on a row's bytes (tests reach it without gigabytes of input).
    package func lowerRowLengthLimit(to bytes: Int) {
        rowLengthLimit = database.lengthLimit(lowered: bytes)
    }

    private static func isIndex(_ statement: String) -> Bool {
        statement.hasPrefix("CREATE INDEX") || statement.hasPrefix("CREATE UNIQUE INDEX")
    }

    /// Compiles a statement on the store being built (for importers); flushes `rowStream` first.
    package func prepare(_ sql: String) throws(SQLiteError) -> Statement {
        try rowStream.flush()
        return try database.prepare(sql)
    }

    /// Runs SQL that returns no rows on the store being built; flushes `rowStream` first.
    package func execute(_ sql: String) throws(SQLiteError) {
        try rowStream.flush()
        try database.execute(sql)
    }

    deinit {
        rowStream.stopWriter()
        completion?.abandon()
        if !finished, let scratchPath { DurableFile.removeIfPresent(scratchPath) }
    }

    /// What `completeStore` started and `finish` ends.
    private final class Completion {
        /// The store's file until it is renamed over the output: the scratch database itself
        /// (written in place) or its copy.
        let path: String
        let inPlace: Bool
        /// The content digest, read from the scratch database on a second thread.
        let digest: ContentDigest.Job
        /// The store's first sync, on a thread of its own.
        let firstSync: BackgroundResult<Void, DurableFile.Failure>
        /// A connection to the store, for the schema part of the digest and the metadata row;
        /// nil once closed.
        var store: Database?

        init(path: String, inPlace: Bool, digest: ContentDigest.Job, firstSync: BackgroundResult<Void, DurableFile.Failure>, store: Database) {
            (self.path, self.inPlace, self.digest, self.firstSync, self.store) = (path, inPlace, digest, firstSync, store)
        }

        /// Stops the threads and removes a copy; the scratch database goes with the builder.
        func abandon() {
            store = nil
            digest.abandon()
            _ = try? firstSync.result()
            if !inPlace { DurableFile.removeIfPresent(path) }
        }
    }
    private var completion: Completion?

    /// Makes the store from the rows: everything but its metadata row and seal (`finish`).
    ///
    /// `Z_PRIMARYKEY` and the seed's tables are written and the scratch database committed.
    /// It is the store when it was written in place and its rows came in the store's order
    /// (`RowStream.inStoreOrder`) and were never changed after: its pages are then those a
    /// copy would hold (`StoreInPlaceTests` compares the two). Otherwise `VACUUM INTO` copies
    /// its tables. Then the layout's indexes are built in the store: tables first, then each
    /// index, one canonical file whatever the insert order. The content digest reads the
    /// scratch database's rows on a second connection: on a second thread while this one
    /// copies them and builds the indexes, or on both threads before the indexes are built in
    /// the very file it reads.
    ///
    /// An importer calls it once its rows are complete, to hear of a uniqueness constraint the
    /// rows break (the index's `SQLiteError`, `constraint`, with its `CREATE UNIQUE INDEX` in
    /// `sql`; `ObjectRows.firstUniqueClash` then finds the rows, which stay readable);
    /// `finish` calls it when nobody did. Nothing can be written after it. A rehearsal's
    /// builder creates the indexes in its scratch database, to be rolled back.
    package func completeStore() throws(SQLiteError) {
        guard !completed else { return }
        try rowStream.flush()
        completed = true
        guard let scratchPath else { return try createIndexes(in: database) }
        rowStream.stopWriter()
        // Every change so far was a row appended in order: nothing updated, deleted or made since.
        let inPlace = writesInPlace && rowStream.inStoreOrder && database.totalChanges == rowStream.rowsAppended && sourceIdentifiers.isEmpty && !recordsSeed
        try canonicalizeJoinTables()
        try writePrimaryKeys()
        try SeedRecord.writeSeedTables(in: database, layout: layout, buildKeys: buildKeys, identifiers: sourceIdentifiers)
        sourceIdentifiers = []
        if recordsSeed { try SeedRecord.pack(in: database, layout: layout, buildKeys: buildKeys) }
        try database.execute("COMMIT")
        // The scratch database has no auto-vacuum unless written in place; its copy gets Core
        // Data's level: VACUUM INTO applies a pending auto_vacuum setting to the file it writes.
        if !writesInPlace { try database.execute("PRAGMA auto_vacuum = INCREMENTAL") }
        // A second connection reads the scratch database's rows while this one copies them; in
        // place, the rows the writer digested are not read again.
        rowStream.streamedPieces.finish()
        let digest = try ContentDigest.Job(path: scratchPath, database: database, streamed: inPlace ? rowStream.streamedPieces : nil)
        digest.start()
        let path = inPlace ? scratchPath : DurableFile.temporaryPath(beside: outputPath, purpose: Self.copyPurpose)
        var firstSync: BackgroundResult<Void, DurableFile.Failure>?
        do throws(SQLiteError) {
            if inPlace {
                digest.readAll()
            } else {
                let vacuum = try database.prepare("VACUUM INTO ?")
                try vacuum.bind([.text(path)])
                _ = try vacuum.step()
            }
            // The tables' pages go to the disk while the indexes are built: a first sync on a
            // thread of its own, so that the last one (after the indexes, the metadata row and
            // the seal) finds fewer pages left to write.
            firstSync = BackgroundResult { () throws(DurableFile.Failure) in try DurableFile.sync(path, toStableStorage: false) }
            let store = try Database(path: path, mode: .readWrite)
            // A journal in memory: an index the rows break is rolled back, and the rows stay
            // readable where they are the store (`ObjectRows.firstUniqueClash`).
            try store.execute("PRAGMA journal_mode = MEMORY; PRAGMA synchronous = OFF; BEGIN")
            do throws(SQLiteError) {
                try createIndexes(in: store, sorterThreads: inPlace ? 2 : 0)
            } catch {
                try? store.execute("ROLLBACK")
                throw error
            }
            try store.execute("COMMIT")
            completion = Completion(path: path, inPlace: inPlace, digest: digest, firstSync: firstSync!, store: store)
        } catch {
            digest.abandon()
            _ = try? firstSync?.result()
            if !inPlace { DurableFile.removeIfPresent(path) }
            throw error
        }
    }

    /// Completes the store and moves it into place.
    ///
    /// After `completeStore`: the content digest (this thread helps with what is left of it)
    /// and the metadata row go into the store, its header is settled and it is sealed, synced
    /// and renamed over the output. Always the same steps in the same order, so the file
    /// stays reproducible. It depends on the model and the rows only (not on which files they
    /// came from): a store rebuilt from its dump is identical.
    public func finish() throws -> Summary {
        guard let scratchPath else { preconditionFailure("a rehearsal's builder is rolled back, never finished") }
        defer {
            finished = true
            DurableFile.removeIfPresent(scratchPath)
        }
        try completeStore()
        guard let completion else {
            throw SQLiteError(code: .error, message: "the store of \(outputPath) failed before it was complete; it cannot be finished")
        }
        self.completion = nil
        let path = completion.path
        let content: ContentDigest.Summary
        var fileDigest: BackgroundResult<String, any Error>?
        let fileSHA256: String
        do {
            let store = completion.store!
            content = try completion.digest.finish(schemaOf: store)
            var metadata = StoreMetadata(model: layout.model, frameworkVersion: layout.era.version, contentDigest: content.digest)
            metadata.buildKeys = buildKeys
            metadata.namesWithinOwners = recordsSeed
            try {
                let insert = try store.prepare("INSERT INTO Z_METADATA (Z_VERSION, Z_UUID, Z_PLIST) VALUES (1, ?, ?)")
                try insert.bind([.text(String(decoding: StoreSeal.placeholder, as: UTF8.self)), .blob(metadata.encoded())])
                try insert.run()
            }()
            try store.execute("PRAGMA journal_mode = DELETE")
            completion.store = nil  // closed (the header and the seal are written beside SQLite)
            try StoreHeader.settle(path: path)
            // Z_UUID: the seal over the file's bytes, never from a clock or a random source.
            try StoreSeal.seal(path: path)
            // The file's bytes are final: its SHA-256 is taken on a second thread while it
            // syncs, and before it is renamed (the thread reads it by its path).
            fileDigest = BackgroundResult { try Self.sha256(ofFile: path) }
            try completion.firstSync.result()
            try DurableFile.sync(path)
            fileSHA256 = try fileDigest!.result()
            try DurableFile.replace(outputPath, with: path)
        } catch {
            completion.abandon()
            _ = try? fileDigest?.result()
            throw error
        }
        var rowCounts: [String: Int] = [:]
        for entity in layout.entities {
            rowCounts[entity.name] = content.rowsByEntity[entity.number] ?? 0
        }
        return Summary(path: outputPath, fileSHA256: fileSHA256, contentDigest: content.digest, rowCounts: rowCounts,
                       writtenInPlace: completion.inPlace, streamedDigestPieces: completion.digest.streamedPieceCount)
    }

    /// A row per entity in `Z_PRIMARYKEY`: `Z_MAX` is the highest `Z_PK` of its table for the
    /// table's root entity, 0 for the others. Written once, at the end: a row updated in place
    /// would leave its page other than a copy's.
    private func writePrimaryKeys() throws(SQLiteError) {
        var highest: [Int: Int64] = [:]
        for table in layout.tables {
            highest[layout.entity(named: table.rootEntity)!.number] = try database.scalar("SELECT IFNULL(MAX(Z_PK), 0) FROM \(table.name)")?.integer ?? 0
        }
        let insert = try database.prepare("INSERT INTO Z_PRIMARYKEY (Z_ENT, Z_NAME, Z_SUPER, Z_MAX) VALUES (?, ?, ?, ?)")
        for entity in layout.entities {
            try insert.bind([.integer(Int64(entity.number)), .text(entity.name), .integer(Int64(entity.superNumber)), .integer(highest[entity.number] ?? 0)])
            try insert.run()
        }
    }

    /// Join tables have no INTEGER PRIMARY KEY, so their hidden rowids follow insert order,
    /// and `VACUUM INTO` keeps them. Rewriting each in key order makes the file independent
    /// of the order the rows came in.
    private func canonicalizeJoinTables() throws(SQLiteError) {
        for join in layout.joinTables {
            let order = "\(join.firstColumn), \(join.secondColumn)"
            try database.execute("""
                CREATE TEMP TABLE seedgen_join AS SELECT * FROM \(join.name) ORDER BY \(order);
                DELETE FROM \(join.name);
                INSERT INTO \(join.name) SELECT * FROM temp.seedgen_join ORDER BY \(order);
                DROP TABLE temp.seedgen_join;
                """)
        }
    }

    /// SHA-256 (hex) of a file's bytes.
    package static func sha256(ofFile path: String) throws -> String {
        var hasher = SHA256()
        try SourceDigest.feed(&hasher, fileAt: path, withLength: false)
        return SourceDigest.hex(hasher)
    }
}

@available(*, unavailable)
extension StoreBuilder: Sendable {}
