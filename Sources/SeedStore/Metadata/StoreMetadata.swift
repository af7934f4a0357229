import Foundation
import SeedModel

/// The property list in `Z_METADATA.Z_PLIST`: what tells Core Data which model a store fits,
/// plus seedgen's own keys.
package struct StoreMetadata: Sendable, Equatable {
    /// `NSStoreModelVersionHashes`: entity name -> 32-byte hash.
    package var versionHashes: [String: [UInt8]]
    /// `NSStoreModelVersionIdentifiers`.
    package var versionIdentifiers: [String]
    /// `NSPersistenceFrameworkVersion`.
    package var frameworkVersion: Int?
    /// `NSStoreType` (`SQLite`).
    package var storeType: String?
    /// `_NSAutoVacuumLevel` (the string `"2"`).
    package var autoVacuumLevel: String?
    /// `NSStoreModelVersionHashesDigest`, when present.
    package var hashesDigest: String?
    /// `NSStoreModelVersionChecksumKey`, when present.
    package var checksum: String?
    /// seedgen's name and version, on stores it wrote.
    package var generator: String?
    /// SHA-256 (hex) of the store's logical content, on stores seedgen wrote (removed when an
    /// app changes the store through the runtime).
    package var contentDigest: String?
    /// The scheme of the seal in `Z_UUID` (`sealScheme`), on stores seedgen wrote.
    package var seal: String?
    /// The seal scheme seedgen writes (see `StoreSeal`).
    package static let sealScheme = "sha256-pieces-v2"
    /// The content digest of the seed a store was installed from, kept once the store has
    /// been changed (so that a newer seed can still be told apart).
    package var seedDigest: String?
    /// Keys neither Core Data's nor ours that the store carries.
    package var otherKeys: [String]
    /// The prefix of seedgen's own keys.
    package static let keyPrefix = "org.seedgen."
    /// The generator string seedgen writes.
    package static let generatorName = "seedgen 0.1.0"

    enum Key {
        static let hashes = "NSStoreModelVersionHashes"
        static let hashesVersion = "NSStoreModelVersionHashesVersion"
        static let identifiers = "NSStoreModelVersionIdentifiers"
        static let framework = "NSPersistenceFrameworkVersion"
        static let storeType = "NSStoreType"
        static let autoVacuum = "_NSAutoVacuumLevel"
        static let digest = "NSStoreModelVersionHashesDigest"
        static let checksum = "NSStoreModelVersionChecksumKey"
        static let generator = StoreMetadata.keyPrefix + "generator"
        static let contentDigest = StoreMetadata.keyPrefix + "contentDigest"
        static let seal = StoreMetadata.keyPrefix + "seal"
        static let seedDigest = StoreMetadata.keyPrefix + "seedDigest"
        static let known: Set<String> = [hashes, hashesVersion, identifiers, framework, storeType, autoVacuum,
                                         digest, checksum, generator, contentDigest, seal, seedDigest]
    }

    /// The metadata seedgen writes for a model.
    package init(model: DataModel, frameworkVersion: Int, contentDigest: String) {
        let hashes = VersionHasher(model: model).entityHashes()
        self.versionHashes = hashes
        self.versionIdentifiers = [model.versionIdentifier]
        self.frameworkVersion = frameworkVersion
        self.storeType = "SQLite"
        self.autoVacuumLevel = "2"
        self.hashesDigest = VersionHasher.hashesDigest(hashes)
        self.checksum = VersionHasher.checksum(hashes)
        self.generator = Self.generatorName
        self.contentDigest = contentDigest
        self.seal = Self.sealScheme
        self.otherKeys = []
    }

    /// The binary property list, byte for byte the same for the same metadata.
    package func encoded() -> [UInt8] {
        var entries: [String: PropertyListValue] = [
            Key.hashes: .dictionary(versionHashes.mapValues { .data($0) }),
            Key.hashesVersion: .integer(3),
            Key.identifiers: .array(versionIdentifiers.map { .string($0) }),
        ]
        if let frameworkVersion { entries[Key.framework] = .integer(Int64(frameworkVersion)) }
        if let storeType { entries[Key.storeType] = .string(storeType) }
        if let autoVacuumLevel { entries[Key.autoVacuum] = .string(autoVacuumLevel) }
        if let hashesDigest { entries[Key.digest] = .string(hashesDigest) }
        if let checksum { entries[Key.checksum] = .string(checksum) }
        if let generator { entries[Key.generator] = .string(generator) }
        if let contentDigest { entries[Key.contentDigest] = .string(contentDigest) }
        if let seal { entries[Key.seal] = .string(seal) }
        if let seedDigest { entries[Key.seedDigest] = .string(seedDigest) }
        return BinaryPropertyListWriter.encode(.dictionary(entries))
    }

    /// What cannot be read from a `Z_PLIST`.
    package struct DecodingError: Error, Sendable, CustomStringConvertible {
        /// Why.
        package var description: String
    }

    /// Reads a `Z_PLIST` written by Core Data or seedgen.
    package init(decoding bytes: [UInt8]) throws(DecodingError) {
        let object: Any
        do {
            object = try PropertyListSerialization.propertyList(from: Data(bytes), format: nil)
        } catch {
            throw DecodingError(description: "not a property list (\(bytes.count) bytes)")
        }
        guard let plist = object as? [String: Any] else {
            throw DecodingError(description: "the property list is not a dictionary")
        }
        guard let hashes = plist[Key.hashes] as? [String: Any] else {
            throw DecodingError(description: "no \(Key.hashes) dictionary")
        }
        var versionHashes: [String: [UInt8]] = [:]
        for (name, value) in hashes {
            guard let data = value as? Data else {
                throw DecodingError(description: "the hash of entity '\(name)' is not data")
            }
            versionHashes[name] = [UInt8](data)
        }
        self.versionHashes = versionHashes
        self.versionIdentifiers = (plist[Key.identifiers] as? [Any])?.compactMap { $0 as? String } ?? []
        self.frameworkVersion = (plist[Key.framework] as? NSNumber)?.intValue
        self.storeType = plist[Key.storeType] as? String
        self.autoVacuumLevel = plist[Key.autoVacuum] as? String
        self.hashesDigest = plist[Key.digest] as? String
        self.checksum = plist[Key.checksum] as? String
        self.generator = plist[Key.generator] as? String
        self.contentDigest = plist[Key.contentDigest] as? String
        self.seal = plist[Key.seal] as? String
        self.seedDigest = plist[Key.seedDigest] as? String
        self.otherKeys = plist.keys.filter { !Key.known.contains($0) }.sorted()
    }
}
