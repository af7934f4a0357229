import SeedStore

/// The full seed record of an installed store, for tests that read or take apart its rows.
public enum FullRecord {
    /// Unpacks the packed record an install wrote into the store at `path` (in one durable
    /// transaction), as its first update or migration does; false when it was not packed.
    @discardableResult
    public static func unpack(at path: String) throws -> Bool {
        let database = try Database.durableWriter(path: path, lockWait: 0)
        try database.execute("BEGIN IMMEDIATE")
        do {
            let unpacked = try SeedRecord.unpack(in: database, path: path)
            try database.endDurableWrite(wrote: unpacked)
            return unpacked
        } catch {
            try? database.execute("ROLLBACK")
            throw error
        }
    }
}
