/// The versions of a model bundle (`.xcdatamodeld`) and which one is current: what a
/// migration needs to find a store's version and the one to bring it to.
public struct ModelVersions: Sendable {
    /// One version: its folder's name without `.xcdatamodel`, and its model.
    public struct Version: Sendable {
        /// The version's name (`EMPlan 2`).
        public var name: String
        /// The model of that version.
        public var model: DataModel

        /// Names a version's model.
        public init(name: String, model: DataModel) {
            self.name = name
            self.model = model
        }
    }

    /// Every version, in the order of their names.
    public var versions: [Version]
    /// The version `.xccurrentversion` names (the only one of a plain model).
    public var current: Version

    /// The versions of a bundle; `current` must be one of them.
    public init(versions: [Version], current: Version) {
        self.versions = versions
        self.current = current
    }

    /// The versions whose entity hashes equal `hashes` (a store's `NSStoreModelVersionHashes`):
    /// the store's version, as Core Data finds it. Two versions may hash alike (a change no hash
    /// covers); each is returned.
    public func versions(matching hashes: [String: [UInt8]]) -> [Version] {
        versions.filter { ModelIdentity(model: $0.model).entityVersionHashes == hashes }
    }
}
