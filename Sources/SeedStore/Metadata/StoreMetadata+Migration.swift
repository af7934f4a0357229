import SeedModel

extension StoreMetadata {
    /// A store's `Z_PLIST` as it reads once the store holds `model`: the entity hashes, the
    /// version identifiers and (where the store had them) the hashes' digest and checksum are
    /// the model's; seedgen's content digest and seal give way to `seedDigest`, as when the
    /// runtime first changes a seed; the build-time keys are `buildKeys` (under the model's
    /// names); every other key, an app's own included, is kept as it was.
    package static func rewriting(_ bytes: [UInt8], for model: DataModel, buildKeys: [String: [String]]) throws(DecodingError) -> [UInt8] {
        var entries = try everyEntry(of: bytes)
        entries[Key.buildKeys] = buildKeys.isEmpty ? nil : .dictionary(buildKeys.mapValues { .array($0.map { .string($0) }) })
        let old = try StoreMetadata(decoding: bytes)
        let hashes = VersionHasher(model: model).entityHashes()
        entries[Key.hashes] = .dictionary(hashes.mapValues { .data($0) })
        entries[Key.identifiers] = .array([.string(model.versionIdentifier)])
        if entries[Key.digest] != nil { entries[Key.digest] = .string(VersionHasher.hashesDigest(hashes)) }
        if entries[Key.checksum] != nil { entries[Key.checksum] = .string(VersionHasher.checksum(hashes)) }
        if let origin = old.originDigest { entries[Key.seedDigest] = .string(origin) }
        entries[Key.contentDigest] = nil
        entries[Key.seal] = nil
        return BinaryPropertyListWriter.encode(.dictionary(entries))
    }

    /// Every key of a `Z_PLIST` with its whole value, for a rewrite that keeps what it does not own.
    static func everyEntry(of bytes: [UInt8]) throws(DecodingError) -> [String: PropertyListValue] {
        let whole: PropertyListValue
        do {
            whole = try PropertyListValue(decoding: bytes)
        } catch {
            throw DecodingError(description: "cannot be carried over: \(error)")
        }
        guard case .dictionary(let entries) = whole else {
            throw DecodingError(description: "the property list is not a dictionary")
        }
        return entries
    }
}
