import Foundation
import SystemPackage
import SeedModel

/// Writes a store in Core Data's layout, atomically and reproducibly.
///
/// Rows go into a scratch database beside the output; `finish` records `Z_MAX`, the content
/// digest and the metadata, copies the scratch with `VACUUM INTO` (one canonical file whatever
/// the insert order), syncs it and renames it over the output. Until then the output path is
/// untouched, and a builder that is dropped without `finish` leaves nothing behind.
public final class StoreBuilder {
    /// The layout being written.
    public let layout: StoreLayout
    /// Where the finished store goes.
    public let outputPath: String
    package let database: Database
    /// Plain inserts written on a second thread; see `RowStream`.
    package let rowStream = RowStream()
    /// Every other statement on the objects' rows (finds, updates, relationships); each waits
    /// for the row stream first.
    package let objectRows: ObjectRows
    /// The most bytes SQLite takes in one row (`SQLITE_LIMIT_LENGTH`, 1,000,000,000 unless
    /// lowered): an importer refuses a bigger object where it is given, before the row stream
    /// writes it on its own thread (where the failure would surface at a later object).
    package private(set) var rowLengthLimit = 0
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
    private var indexesCreated = false

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
            try Self.startStore(of: layout, in: database)
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
        self.objectRows = ObjectRows(database: database, layout: layout, rowStream: rowStream)
        rowLengthLimit = database.lengthLimit()
    }

    /// Gives `database` the layout's tables (not its indexes: `createIndexes`) and a row per
    /// entity in `Z_PRIMARYKEY`, inside a transaction left open: importers write inside it.
    /// A build needs no journal (a failed one is deleted); a rehearsal's is in memory, so that
    /// it can be rolled back.
    static func startStore(of layout: StoreLayout, in database: Database, rollingBack: Bool = false) throws(SQLiteError) {
        try database.execute("""
            PRAGMA page_size = 4096; PRAGMA encoding = 'UTF-8';
            PRAGMA journal_mode = \(rollingBack ? "MEMORY" : "OFF"); PRAGMA synchronous = OFF;
            """)
        try database.execute("BEGIN")
        // Tables now, indexes after the rows (`createIndexes`): cheaper than keeping them up to date.
        for statement in layout.schema where !isIndex(statement) { try database.execute(statement) }
        let insert = try database.prepare("INSERT INTO Z_PRIMARYKEY (Z_ENT, Z_NAME, Z_SUPER, Z_MAX) VALUES (?, ?, ?, 0)")
        for entity in layout.entities {
            try insert.bind([.integer(Int64(entity.number)), .text(entity.name), .integer(Int64(entity.superNumber))])
            try insert.run()
        }
    }

    /// Creates the layout's indexes, once: `finish` does, and an importer before queries that
    /// need them. Created in the layout's order after the tables, as `VACUUM INTO` writes them
    /// anyway, so the store's bytes do not depend on when.
    package func createIndexes() throws(SQLiteError) {
        guard !indexesCreated else { return }
        try rowStream.flush()
        // Two sorter threads: the indexes are built on both cores (the same index, sorted the same).
        try database.execute("PRAGMA threads = 2")
        for statement in layout.schema where Self.isIndex(statement) { try database.execute(statement) }
        indexesCreated = true
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
        if !finished, let scratchPath { DurableFile.removeIfPresent(scratchPath) }
    }

    /// Completes the store and moves it into place.
    ///
    /// The content digest is computed on a second connection while `VACUUM INTO` copies the
    /// scratch database (two cores), and this thread helps with what is left of it once the
    /// copy is made; the metadata row then goes into the copy. Always the same
    /// steps in the same order, so the file stays reproducible. It depends on the model and the
    /// rows only (not on which files they came from): a store rebuilt from its dump is identical.
    public func finish() throws -> Summary {
        guard let scratchPath else { preconditionFailure("a rehearsal's builder is rolled back, never finished") }
        defer {
            finished = true
            DurableFile.removeIfPresent(scratchPath)
        }
        try createIndexes()
        rowStream.stopWriter()
        try canonicalizeJoinTables()
        let update = try database.prepare("UPDATE Z_PRIMARYKEY SET Z_MAX = ? WHERE Z_ENT = ?")
        for table in layout.tables {
            let root = layout.entity(named: table.rootEntity)!
            let max = try database.scalar("SELECT IFNULL(MAX(Z_PK), 0) FROM \(table.name)")?.integer ?? 0
            try update.bind([.integer(max), .integer(Int64(root.number))])
            try update.run()
        }
        try SeedRecord.writeSeedTables(in: database, layout: layout, buildKeys: buildKeys, identifiers: sourceIdentifiers)
        sourceIdentifiers = []
        try database.execute("COMMIT")
        // Let a second connection read the scratch database while this one copies it.
        // The scratch database has no auto-vacuum (cheaper inserts); its copy gets Core Data's
        // level: VACUUM INTO applies a pending auto_vacuum setting to the file it writes.
        try database.execute("PRAGMA auto_vacuum = INCREMENTAL")
        let digestJob = try ContentDigest.Job(path: scratchPath, database: database)
        digestJob.start()
        let temporary = DurableFile.temporaryPath(beside: outputPath, purpose: Self.copyPurpose)
        let content: ContentDigest.Summary
        var fileDigest: FileDigestThread?
        let fileSHA256: String
        do {
            let vacuum = try database.prepare("VACUUM INTO ?")
            try vacuum.bind([.text(temporary)])
            _ = try vacuum.step()
            content = try digestJob.finish()
            var metadata = StoreMetadata(model: layout.model, frameworkVersion: layout.era.version, contentDigest: content.digest)
            metadata.buildKeys = buildKeys
            try {
                let copy = try Database(path: temporary, mode: .readWrite)
                try copy.execute("PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF")
                let insert = try copy.prepare("INSERT INTO Z_METADATA (Z_VERSION, Z_UUID, Z_PLIST) VALUES (1, ?, ?)")
                try insert.bind([.text(String(decoding: StoreSeal.placeholder, as: UTF8.self)), .blob(metadata.encoded())])
                try insert.run()
                try copy.execute("PRAGMA journal_mode = DELETE")
            }()
            // Z_UUID: the seal over the file's bytes, never from a clock or a random source.
            try StoreSeal.seal(path: temporary)
            // The file's bytes are final: its SHA-256 is taken on a second thread while it
            // syncs, and before it is renamed (the thread reads it by its path).
            fileDigest = FileDigestThread(path: temporary)
            try DurableFile.sync(temporary)
            fileSHA256 = try fileDigest!.result()
            try DurableFile.replace(outputPath, with: temporary)
        } catch {
            digestJob.abandon()
            _ = try? fileDigest?.result()
            DurableFile.removeIfPresent(temporary)
            throw error
        }
        var rowCounts: [String: Int] = [:]
        for entity in layout.entities {
            rowCounts[entity.name] = content.rowsByEntity[entity.number] ?? 0
        }
        return Summary(path: outputPath, fileSHA256: fileSHA256,
                       contentDigest: content.digest, rowCounts: rowCounts)
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
