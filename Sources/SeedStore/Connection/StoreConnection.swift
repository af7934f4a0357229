import Foundation
import SeedModel

/// One open connection to a store an app uses: reads with fetch requests, writes in
/// transactions through an `ObjectWriter`. Not for sharing between threads; the runtime gives
/// its read context and its write queue one each.
///
/// The store stays in the journal mode it has (a seedgen seed: rollback journal), so an
/// unchanged store stays byte for byte its seed and no `-wal`/`-shm` files appear beside it.
package final class StoreConnection {
    /// The store file.
    package let path: String
    /// The model's layout.
    package let layout: StoreLayout
    let database: Database

    /// Whether the connection may write.
    package enum Access: Sendable {
        case readOnly
        case readWrite
    }

    /// Opens the store at `path` and checks that it was made for `layout`'s model.
    package init(path: String, layout: StoreLayout, access: Access = .readWrite) throws {
        let kind = FileSystem.kind(of: path)
        if kind == .missing { throw StoreOpenError(.missingFile, "\(path): no store file") }
        if let what = kind.notAFile { throw StoreOpenError(.notAStoreFile, "\(path): \(what), not a store file") }
        self.path = path
        self.layout = layout
        database = try Database(path: path, mode: access == .readOnly ? .readOnly : .readWrite)
        database.registerPredicateFunctions()
        database.setBusyTimeout(milliseconds: 10_000)
        let metadata = try self.metadata()
        let differences = metadata.differences(from: layout.model)
        if !differences.isEmpty {
            throw StoreOpenError(.otherModel(differences), "\(path): the store was made for another version of the model (\(differences.joined(separator: "; ")))")
        }
    }

    /// The metadata of the store at `path`, whichever model it was made for.
    package static func metadata(ofStoreAt path: String) throws -> StoreMetadata {
        let database = try Database(path: path, mode: .readOnly)
        database.setBusyTimeout(milliseconds: 10_000)
        return try metadata(of: database, path: path)
    }

    /// Lets SQLite finish what a crash or another process left beside the store (rolls back
    /// a hot journal, checkpoints a write-ahead log), so that the file alone is the whole store.
    /// Returns the sidecar files still there (another process has the store open).
    package static func settle(path: String) throws -> [String] {
        if !StoreFile.sidecars(of: path).isEmpty {
            let database = try Database(path: path, mode: .readWrite)
            database.setBusyTimeout(milliseconds: 10_000)
            _ = try database.scalar("SELECT COUNT(*) FROM sqlite_master")
            if try database.scalar("PRAGMA journal_mode")?.text == "wal" {
                try database.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            }
        }
        return StoreFile.sidecars(of: path)
    }

    private static func metadata(of database: Database, path: String) throws -> StoreMetadata {
        guard let bytes = try database.metadataRow()?.plist else {
            throw StoreOpenError(.badMetadata, "\(path): no metadata row in Z_METADATA")
        }
        do {
            return try StoreMetadata(decoding: bytes)
        } catch {
            throw StoreOpenError(.badMetadata, "\(path): Z_METADATA: \(error)")
        }
    }

    /// The store's metadata (`Z_METADATA.Z_PLIST`).
    package func metadata() throws -> StoreMetadata {
        try Self.metadata(of: database, path: path)
    }

    /// The objects `request` matches.
    package func fetch(_ request: FetchRequest) throws -> [FetchedObject] {
        try database.fetchObjects(request, layout: layout)
    }

    /// How many objects `request` matches (honouring its limit and offset).
    package func count(_ request: FetchRequest) throws -> Int {
        try database.countObjects(request, layout: layout)
    }

    /// Whether the store holds its data: the model's fetch request template `template` (by
    /// convention `initialisationCheck`) finds at least one object.
    package func isInitialised(template name: String = "initialisationCheck") throws -> Bool {
        guard let template = layout.model.fetchRequest(named: name) else {
            throw StoreOpenError(.noTemplate(name), "\(path): the model has no fetch request template '\(name)' to tell whether the store is initialised")
        }
        var request = try FetchRequest(template: template)
        request.limit = 1
        return try count(request) > 0
    }

    /// Runs `body` in one transaction: committed when it returns and every changed object is
    /// valid, rolled back (nothing written) when it throws.
    ///
    /// The first change to a seed also rewrites its metadata: the content digest and the seal
    /// no longer describe the file, so they give way to `seedDigest`, the digest of the seed
    /// it came from (so that `seedgen verify` stays clean and a newer seed is still noticed).
    package func write<Result>(_ body: (ObjectWriter) throws -> Result) throws -> Result {
        try database.execute("BEGIN IMMEDIATE")
        do {
            let writer = ObjectWriter(database: database, layout: layout)
            let result = try body(writer)
            try writer.validate()
            if writer.hasChanges { try markChangedSinceSeed() }
            try database.execute("COMMIT")
            return result
        } catch {
            try? database.execute("ROLLBACK")
            throw error
        }
    }

    private func markChangedSinceSeed() throws {
        var metadata = try metadata()
        // Keys we cannot read back would be lost by rewriting; such a store keeps its metadata.
        guard metadata.contentDigest != nil || metadata.seal != nil, metadata.otherKeys.isEmpty else { return }
        metadata.seedDigest = metadata.originDigest
        metadata.contentDigest = nil
        metadata.seal = nil
        try database.run("UPDATE Z_METADATA SET Z_PLIST = ?", [.blob(metadata.encoded())])
    }
}

@available(*, unavailable)
extension StoreConnection: Sendable {}
