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

    /// The steps between versions that the app migrates with its own code (a SwiftData
    /// `SchemaMigrationPlan`'s custom stages): never to be taken by an inferred migration.
    package var customStages: [CustomStage] = []
    /// Versions of the plan whose model could not be read, and why: a store made by one of them
    /// cannot be migrated from here.
    package var unreadable: [UnreadableVersion] = []

    /// A step the app's migration plan takes with its own code.
    package struct CustomStage: Sendable, Hashable {
        /// The version it migrates from and to, by name; nil where the sources do not say.
        package var from: String?
        package var to: String?
        /// Where the stage is made (`file:line:column`).
        package var place: String

        /// A custom stage from `from` to `to`, made at `place`.
        package init(from: String?, to: String?, place: String) {
            self.from = from
            self.to = to
            self.place = place
        }
    }

    /// A version of the plan that could not be read.
    package struct UnreadableVersion: Sendable, Hashable {
        /// The version's name.
        package var name: String
        /// Why (the reader's error, with its place).
        package var reason: String

        /// The version `name`, unreadable for `reason`.
        package init(name: String, reason: String) {
            self.name = name
            self.reason = reason
        }
    }

    /// The versions of a bundle; `current` must be one of them.
    public init(versions: [Version], current: Version) {
        self.versions = versions
        self.current = current
    }

    /// The first custom stage a migration from the version `source` to the current one would
    /// cross, in the order of `versions`: a stage between two versions of that span, or one whose
    /// versions the sources do not name.
    package func customStage(from source: String) -> CustomStage? {
        guard let start = versions.firstIndex(where: { $0.name == source }),
              let end = versions.firstIndex(where: { $0.name == current.name }), start < end else { return nil }
        let span = Set(versions[start...end].map(\.name))
        return customStages.first { stage in
            guard let from = stage.from, let to = stage.to else { return true }
            return span.contains(from) && span.contains(to)
        }
    }

    /// The versions whose entity hashes equal `hashes` (a store's `NSStoreModelVersionHashes`):
    /// the store's version, as Core Data finds it. Two versions may hash alike (a change no hash
    /// covers); each is returned.
    public func versions(matching hashes: [String: [UInt8]]) -> [Version] {
        versions.filter { ModelIdentity(model: $0.model).entityVersionHashes == hashes }
    }
}
