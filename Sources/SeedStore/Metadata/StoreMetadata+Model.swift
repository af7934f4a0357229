import Foundation
import SeedModel

extension StoreMetadata {
    /// How the store's entity version hashes differ from `model`'s, one line per entity;
    /// empty when the store fits the model (what Core Data checks before opening a store).
    package func differences(from model: DataModel) -> [String] {
        differences(from: ModelIdentity(model: model))
    }

    /// How this store's hashes differ from `identity`'s, one line per entity (empty when none).
    package func differences(from identity: ModelIdentity) -> [String] {
        identity.differences(from: versionHashes)
    }

    /// The content digest of the seed the store came from: the recorded digest of an unchanged
    /// seed, or the one kept when the runtime first changed it.
    package var originDigest: String? { seedDigest ?? contentDigest }
}
