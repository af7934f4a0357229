import Foundation

/// A model as a store knows it: each entity's version hash, the 32 bytes Core Data records in a
/// store's metadata. On Apple platforms `NSManagedObjectModel.entityVersionHashesByName` gives
/// them, anywhere `seedgen hash --json` prints them, and a store's own metadata holds them; so a
/// model can be named without its source (an app bundle has only the compiled `.momd`).
public struct ModelIdentity: Sendable, Hashable {
    /// Entity name → version hash.
    public let entityVersionHashes: [String: [UInt8]]

    /// The identity with these hashes.
    public init(entityVersionHashes: [String: [UInt8]]) {
        self.entityVersionHashes = entityVersionHashes
    }

    /// The identity of `model` (`VersionHasher`); an app with the model's source gives the
    /// installer its `StoreLayout` instead.
    package init(model: DataModel) {
        entityVersionHashes = VersionHasher(model: model).entityHashes()
    }

    /// A problem with hashes given as text.
    public struct FormatError: Error, Sendable, CustomStringConvertible {
        /// What is wrong.
        public var description: String
    }

    /// The identity `seedgen hash --json` printed: a JSON object of entity names and base64 hashes.
    public init(json: Data) throws(FormatError) {
        guard let object = try? JSONSerialization.jsonObject(with: json) as? [String: Any], !object.isEmpty else {
            throw FormatError(description: "not a JSON object of entity names and base64 version hashes (what `seedgen hash --json` prints)")
        }
        var hashes: [String: [UInt8]] = [:]
        for (name, value) in object {
            guard let text = value as? String, let bytes = Data(base64Encoded: text), bytes.count == 32 else {
                throw FormatError(description: "entity \(name): not a base64 version hash of 32 bytes")
            }
            hashes[name] = [UInt8](bytes)
        }
        entityVersionHashes = hashes
    }

    /// How `stored` (a store's hashes) differs from this identity, one line per entity; empty
    /// when they are the same.
    package func differences(from stored: [String: [UInt8]]) -> [String] {
        var lines: [String] = []
        for name in Set(entityVersionHashes.keys).union(stored.keys).sorted(by: DataModel.namePrecedes) {
            switch (stored[name], entityVersionHashes[name]) {
            case (nil, _): lines.append("entity \(name): in the model, not in the store")
            case (_, nil): lines.append("entity \(name): in the store, not in the model")
            case (let found?, let expected?) where found != expected:
                lines.append("entity \(name): the store's hash \(Data(found).base64EncodedString()) is not the model's \(Data(expected).base64EncodedString())")
            default: break
            }
        }
        return lines
    }
}
