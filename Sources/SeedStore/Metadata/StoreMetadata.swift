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
    /// The build-time keys (`seedgen build --key`) that named objects, entity name ->
    /// attribute names; empty when the build gave none (then the key is left out).
    package var buildKeys: [String: [String]] = [:]
    /// Whether the store's seed record names objects without a key within their owner
    /// (`ObjectNames.owner(of:)`): set when seedgen records an installed seed; a record written
    /// before names them by their values alone, and goes on doing so.
    package var namesWithinOwners = false
    /// Every key the metadata holds, with its value in short words: a scalar's text (its first
    /// 200 characters), else its kind and size (what `inspect` shows).
    package var values: [String: String]
    /// The keys neither Core Data's nor seedgen's that seedgen reads (an app's own), sorted.
    package var otherKeys: [String] { values.keys.filter { !Key.known.contains($0) }.sorted() }
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
        static let buildKeys = StoreMetadata.keyPrefix + "keys"
        static let namesWithinOwners = StoreMetadata.keyPrefix + "namesWithinOwners"
        static let known: Set<String> = [hashes, hashesVersion, identifiers, framework, storeType, autoVacuum,
                                         digest, checksum, generator, contentDigest, seal, seedDigest, buildKeys, namesWithinOwners]
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
        self.values = [:]
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
        if !buildKeys.isEmpty {
            entries[Key.buildKeys] = .dictionary(buildKeys.mapValues { .array($0.map { .string($0) }) })
        }
        if namesWithinOwners { entries[Key.namesWithinOwners] = .boolean(true) }
        return BinaryPropertyListWriter.encode(.dictionary(entries))
    }

    /// What cannot be read from a `Z_PLIST`.
    package struct DecodingError: Error, Sendable, CustomStringConvertible {
        /// Why.
        package var reason: String
        package var description: String { "Z_METADATA.Z_PLIST: \(reason)" }

        init(description reason: String) {
            self.reason = reason
        }
    }

    /// Reads a `Z_PLIST` written by Core Data or seedgen, with seedgen's own bounded reader (the
    /// bytes come from a store file, which may be anything). Only the keys read here are decoded;
    /// the values of other keys may be of any kind.
    package init(decoding bytes: [UInt8]) throws(DecodingError) {
        let plist: BinaryPropertyList
        var entries: [String: Int] = [:]
        do {
            plist = try BinaryPropertyList(bytes: bytes)
            guard case .dictionary(let pairs) = try plist.object(plist.topObject) else {
                throw DecodingError(description: "the property list is not a dictionary")
            }
            for pair in pairs { entries[try plist.string(pair.key)] = pair.value }
        } catch let error as DecodingError {
            throw error
        } catch {
            throw DecodingError(description: "not a property list (\(bytes.count) bytes): \(error)")
        }
        /// The value of `key` when it is of the kind `read` takes (else nil, as before).
        func value<T>(_ key: String, _ read: (BinaryPropertyList.Object) -> T?) -> T? {
            guard let index = entries[key], let object = try? plist.object(index) else { return nil }
            return read(object)
        }
        func string(_ key: String) -> String? {
            value(key) { if case .scalar(let text, "string") = $0 { text } else { nil } }
        }
        guard let index = entries[Key.hashes], case .dictionary(let hashes)? = try? plist.object(index) else {
            throw DecodingError(description: "no \(Key.hashes) dictionary")
        }
        var versionHashes: [String: [UInt8]] = [:]
        for pair in hashes {
            guard let name = try? plist.string(pair.key) else {
                throw DecodingError(description: "an entity name of \(Key.hashes) is not a string")
            }
            guard case .data(let bytes)? = try? plist.object(pair.value) else {
                throw DecodingError(description: "the hash of entity '\(name)' is not data")
            }
            versionHashes[name] = Array(bytes)
        }
        self.versionHashes = versionHashes
        self.versionIdentifiers = value(Key.identifiers) { object -> [String]? in
            guard case .array(let items) = object else { return nil }
            return items.compactMap { try? plist.string($0) }
        } ?? []
        self.frameworkVersion = value(Key.framework) { object -> Int? in
            guard case .scalar(let text, "number") = object else { return nil }
            return Int(text) ?? Double(text).flatMap { $0.isFinite && abs($0) < 1e15 ? Int($0) : nil }
        }
        self.storeType = string(Key.storeType)
        self.autoVacuumLevel = string(Key.autoVacuum)
        self.hashesDigest = string(Key.digest)
        self.checksum = string(Key.checksum)
        self.generator = string(Key.generator)
        self.contentDigest = string(Key.contentDigest)
        self.seal = string(Key.seal)
        self.seedDigest = string(Key.seedDigest)
        self.namesWithinOwners = entries[Key.namesWithinOwners] != nil
        if let index = entries[Key.buildKeys], case .dictionary(let pairs)? = try? plist.object(index) {
            for pair in pairs {
                guard let entity = try? plist.string(pair.key), case .array(let items)? = try? plist.object(pair.value) else { continue }
                let names = items.compactMap { try? plist.string($0) }
                if names.count == items.count && !names.isEmpty { buildKeys[entity] = names }
            }
        }
        var values: [String: String] = [:]
        for (key, index) in entries {
            values[key] = switch try? plist.object(index) {
            case .scalar(let text, _)?: text.count > 200 ? text.prefix(200) + "…" : text
            case .data(let bytes)?: "\(bytes.count) bytes of data"
            case .array(let items)?: "an array of \(items.count)"
            case .dictionary(let pairs)?: "a dictionary of \(pairs.count)"
            case .uid(let number)?: "an archiver's reference to object \(number)"
            case nil: "an unreadable value"
            }
        }
        self.values = values
    }
}
