import SystemPackage

/// Sets the counters SQLite keeps in a database file's header to fixed values once nothing
/// writes the file any more, so that a store's bytes depend on its rows, not on how many
/// transactions and schema changes made it.
///
/// A build writes its store in place or as a copy (`StoreBuilder.finish`). The two give the same
/// pages, but SQLite counts their transactions in the file change counter (offset 24) and the
/// version-valid-for number (offset 92), and `VACUUM INTO` sets the schema cookie (offset 40)
/// one above the scratch database's. All three become 1 (file format, "The Database Header"):
/// the change counter and the version-valid-for number stay equal, so SQLite keeps trusting the
/// header's page count, and a connection opened later reads the schema afresh anyway.
enum StoreHeader {
    /// The offsets of the file change counter, the schema cookie and the version-valid-for number.
    static let counterOffsets: [Int64] = [24, 40, 92]

    /// Writes 1 (big-endian, four bytes) at each of `counterOffsets` of the file at `path`.
    static func settle(path: String) throws(DurableFile.Failure) {
        let descriptor = try DurableFile.open(path, .writeOnly, for: "open")
        defer { try? descriptor.close() }
        for offset in counterOffsets {
            _ = try DurableFile.attempt("write", path) { try descriptor.writeAll(toAbsoluteOffset: offset, [0, 0, 0, 1] as [UInt8]) }
        }
    }
}
