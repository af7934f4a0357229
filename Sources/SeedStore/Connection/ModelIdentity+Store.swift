import SeedModel

extension ModelIdentity {
    /// The identity a store records in its metadata: for an app that trusts its bundled seed to
    /// name the model it ships with (the seed's own hashes), when it has neither the model's
    /// source nor Core Data.
    public init(storeAt path: String) throws {
        self.init(entityVersionHashes: try StoreConnection.metadata(ofStoreAt: path).versionHashes)
    }
}
