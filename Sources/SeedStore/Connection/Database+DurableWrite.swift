import Foundation

/// The one way a tool changes a store in place (`StoreMigrator`, `SeedUpdater`): one SQLite
/// transaction on a durable connection, so that killed at any moment the store is wholly as it
/// was or wholly changed, in its own journal mode.
extension Database {
    /// A connection that writes the store at `path` durably: synchronous FULL, with SQLite's
    /// fullfsync (on Apple platforms fsync does not reach stable storage; SQLite then uses
    /// F_FULLFSYNC), and a `durableWriterCache` page cache, which also bounds the sorter's
    /// memory (measured flat from 1M to 2M rows). Its TEMP tables (a million-row update's work
    /// tables, scanned whole several times) have 64 KiB pages: a sixteenth of the reads and
    /// writes of their spilled pages, 0.7-1 s of a 14 s update (a cache is sized in bytes, so
    /// memory stays what it was). Deleted content is zeroed in the pages written anyway
    /// (`secure_delete = FAST`), not by writing, and first journaling, every page a deletion
    /// frees: SQLite built with `SQLITE_SECURE_DELETE` (Debian's is) did that to the whole source
    /// table a migration drops; the pages freed are then moved over or cut off by the
    /// incremental vacuum before the commit (`endDurableWrite`), so nothing deleted stays in the
    /// file either way. It waits `lockWait` milliseconds for another connection's write
    /// lock; its first read rolls back what a killed writer left (a reader's cannot).
    package static func durableWriter(path: String, lockWait: Int32) throws(SQLiteError) -> Database {
        let database = try Database(path: path, mode: .readWrite)
        database.setBusyTimeout(milliseconds: lockWait)
        try database.execute("""
            PRAGMA synchronous = FULL; PRAGMA fullfsync = ON; PRAGMA checkpoint_fullfsync = ON;
            PRAGMA cache_size = -\(durableWriterCache / 1024); PRAGMA temp.page_size = 65536; PRAGMA secure_delete = FAST
            """)
        return database
    }

    /// The durable writer's page cache, in bytes.
    package static let durableWriterCache = 32 << 20

    /// Ends the write transaction: when it `wrote`, gives back the pages it freed (Core Data's
    /// stores keep incremental auto-vacuum), then COMMIT. In the transaction, not after it: a
    /// kill between the two left the deleted content in freed pages until a later write, and the
    /// second transaction's commit cost its syncs (0.04 s of a 1.2 s migration of a million
    /// rows). The journal holds as many pages either way: the freed pages' old content, where
    /// after the commit it held the moved pages'. Else ROLLBACK, first removing a
    /// `-journal` left beside the store — under the write lock with nothing written it is no
    /// hot one, but a dead writer's never synced, and nothing a dead run left survives the next.
    package func endDurableWrite(wrote: Bool) throws {
        if !wrote, FileSystem.kind(of: path + "-journal") == .regular {
            try FileManager.default.removeItem(atPath: path + "-journal")
        }
        if wrote { try execute("PRAGMA incremental_vacuum") }
        try execute(wrote ? "COMMIT" : "ROLLBACK")
    }

    /// The one durable write transaction a tool makes in a store (`StoreMigrator`,
    /// `SeedUpdater`, an install's record): a `durableWriter` on `path`, each of `attaching`
    /// attached read-only and immutable (a seed nothing writes), `configure` run, then
    /// `BEGIN IMMEDIATE` and `body`. What `body` returns with `wrote` has its freed pages given
    /// back and is committed (`endDurableWrite`); without `wrote`, or in a `rehearsal`, rolled back.
    /// Whatever `body` or the commit throws rolls the transaction back and is thrown again; a
    /// connection that cannot be opened, attached or begun throws `DurableWriteFailure`.
    package static func durableTransaction<Result>(path: String, lockWait: Int32, attaching: [(path: String, schema: String)] = [], rehearsal: Bool = false,
                                                   configure: (Database) throws -> Void = { _ in },
                                                   _ body: (Database) throws -> (result: Result, wrote: Bool)) throws -> Result {
        let database: Database
        do {
            database = try durableWriter(path: path, lockWait: lockWait)
            for attached in attaching {
                try database.run("ATTACH DATABASE ? AS \(attached.schema)", [.text(uri(for: attached.path) + "?mode=ro&immutable=1")])
            }
            try configure(database)
            try database.execute("BEGIN IMMEDIATE")
        } catch {
            throw DurableWriteFailure(underlying: error)
        }
        do {
            let (result, wrote) = try body(database)
            if rehearsal {
                try database.execute("ROLLBACK")
            } else {
                try database.endDurableWrite(wrote: wrote)
            }
            for attached in attaching { try? database.execute("DETACH DATABASE \(attached.schema)") }
            return result
        } catch {
            try? database.execute("ROLLBACK")
            throw error
        }
    }
}

/// A store's durable write transaction could not be begun (`Database.durableTransaction`):
/// opened, attached to or locked.
package struct DurableWriteFailure: Error, CustomStringConvertible {
    /// What failed, as SQLite or the file system said it.
    package let underlying: any Error

    package var description: String { "\(underlying)" }
}
