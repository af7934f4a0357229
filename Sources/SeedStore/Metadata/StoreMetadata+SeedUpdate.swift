extension StoreMetadata {
    /// A store's `Z_PLIST` once it holds the seed whose metadata is `seed`: `seedDigest` is the
    /// seed's content digest and the build keys are the seed's; the store's own content digest
    /// and seal give way (its bytes are not the seed's); every other key, an app's own
    /// included, is kept as it was. With `recordingNamesWithinOwners` (a seed recorded as it is
    /// installed), the record is said to name objects within their owners.
    package static func updating(_ bytes: [UInt8], toSeed seed: StoreMetadata, recordingNamesWithinOwners: Bool = false) throws(DecodingError) -> [UInt8] {
        var entries = try everyEntry(of: bytes)
        if recordingNamesWithinOwners { entries[Key.namesWithinOwners] = .boolean(true) }
        entries[Key.seedDigest] = seed.originDigest.map(PropertyListValue.string)
        entries[Key.buildKeys] = seed.buildKeys.isEmpty ? nil : .dictionary(seed.buildKeys.mapValues { .array($0.map { .string($0) }) })
        entries[Key.contentDigest] = nil
        entries[Key.seal] = nil
        return BinaryPropertyListWriter.encode(.dictionary(entries))
    }
}
