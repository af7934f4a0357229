import Foundation
import SeedModel

extension StoreMetadata {
    /// How the store's entity version hashes differ from `model`'s, one line per entity;
    /// empty when the store fits the model (what Core Data checks before opening a store).
    package func differences(from model: DataModel) -> [String] {
        let computed = VersionHasher(model: model).entityHashes()
        var lines: [String] = []
        for name in Set(computed.keys).union(versionHashes.keys).sorted(by: DataModel.namePrecedes) {
            switch (versionHashes[name], computed[name]) {
            case (nil, _): lines.append("entity \(name): in the model, not in the store")
            case (_, nil): lines.append("entity \(name): in the store, not in the model")
            case (let stored?, let expected?) where stored != expected:
                lines.append("entity \(name): the store's hash \(Data(stored).base64EncodedString()) is not the model's \(Data(expected).base64EncodedString())")
            default: break
            }
        }
        return lines
    }

    /// The content digest of the seed the store came from: the recorded digest of an unchanged
    /// seed, or the one kept when the runtime first changed it.
    package var originDigest: String? { seedDigest ?? contentDigest }
}
