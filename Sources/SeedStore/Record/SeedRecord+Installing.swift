import SeedModel

/// The record written where it is needed: into a copy of a seed about to become a user's store.
extension SeedRecord {
    /// What recording an installed copy did.
    package enum Recording: Equatable, Sendable {
        /// The record was written (`objects` rows).
        case recorded(objects: Int)
        /// The copy carried its record already (a seed an earlier seedgen built, or a store
        /// recorded before): nothing was written.
        case carriedAlready
    }

    /// Records the seed the store at `path` holds, in one durable transaction, packed (`pack`:
    /// ten bytes an object) unless `packed` is false (the full record, as an update leaves it,
    /// for tests that take a record apart): the store must be
    /// a fresh copy of a seed, holding nothing but the seed's rows (the installer's temporary
    /// copy, before it is put in place; `seedgen install`'s). Its layout comes from the model
    /// the seed carries, else `layout`. Its metadata then names the seed it came from
    /// (`org.seedgen.seedDigest`) and drops the seal and content digest, which no longer
    /// describe the file, as after an update.
    ///
    /// Throws `RecordingError` when the copy carries no model and no `layout` is given, or is
    /// of another model than `layout`'s, and `SQLiteError` when writing fails (the transaction
    /// is rolled back).
    package static func recordInstalledCopy(at path: String, layout given: StoreLayout? = nil, packed: Bool = true) throws -> Recording {
        // The record is appended in (entity, `Z_PK`) order and the rows are read in order: a
        // small cache serves (an app's first start; the writer's 32 MiB took the peak to 70 MiB).
        let configure: (Database) throws -> Void = { try $0.execute("PRAGMA cache_size = -8192") }
        do {
            return try Database.durableTransaction(path: path, lockWait: 0, configure: configure) { database in
                try recordInstalledCopy(in: database, path: path, layout: given, packed: packed)
            }
        } catch let failure as DurableWriteFailure {
            throw failure.underlying
        }
    }

    /// `recordInstalledCopy(at:layout:packed:)` inside its transaction on `database`: what it
    /// returns, and whether it wrote.
    private static func recordInstalledCopy(in database: Database, path: String, layout given: StoreLayout?, packed: Bool) throws -> (result: Recording, wrote: Bool) {
        if try hasRecord(in: database) {
            return (.carriedAlready, false)
        }
        guard let bytes = try database.metadataRow()?.plist else { throw RecordingError(path: path, problem: "no metadata row in Z_METADATA") }
        let metadata = try StoreMetadata(decoding: bytes)
        guard let model = try model(in: database, path: path) ?? given?.model else {
            throw RecordingError(path: path, problem: "the seed carries no model (\(modelTable)) and none was given")
        }
        if let given, ModelIdentity(model: given.model) != ModelIdentity(model: model) {
            throw RecordingError(path: path, problem: "the seed carries another model than the one given")
        }
        let layout = try installedLayout(of: given ?? StoreLayout(model: model), in: database, path: path, metadata: metadata)
        if packed {
            // Unpacking names the objects again by the model the store carries.
            if try !isPresent(modelTable, in: database) { try writeModel(layout.model, in: database) }
            try pack(in: database, layout: layout, buildKeys: metadata.buildKeys)
        } else {
            try recordInstalled(in: database, layout: layout, buildKeys: metadata.buildKeys)
        }
        try database.run("UPDATE main.Z_METADATA SET Z_PLIST = ?", [.blob(try StoreMetadata.updating(bytes, toSeed: metadata, recordingNamesWithinOwners: true))])
        let objects = Int(try database.scalar(packed ? "SELECT IFNULL(SUM(length(ENTRIES)), 0) / \(packedEntryLength) FROM main.\(packedTable)"
                                                     : "SELECT COUNT(*) FROM main.\(table)")?.integer ?? 0)
        return (.recorded(objects: objects), true)
    }

    /// Why an installed copy could not be recorded.
    package struct RecordingError: Error, CustomStringConvertible {
        /// The copy.
        package let path: String
        /// What is wrong.
        package let problem: String

        package var description: String { "\(path): cannot record the seed it holds: \(problem)" }
    }

    /// `layout` as the store open on `database` (at `path`) holds it, by its metadata's framework
    /// version: how an install records the seed and the first update unpacks that record.
    static func installedLayout(of layout: StoreLayout, in database: Database, path: String, metadata: StoreMetadata) throws -> StoreLayout {
        try StoreFile(path: path, database: database).storedLayout(of: layout, frameworkVersion: metadata.frameworkVersion).layout
    }
}
