/// Why a store cannot be migrated with a model bundle; nothing was changed.
public struct MigrationError: Error, Sendable, CustomStringConvertible {
    /// What kind of problem it is.
    public enum Reason: Sendable, Hashable {
        /// No version of the bundle has the store's entity hashes; these entities' hashes match
        /// no version (or the store has no entity of that name).
        case unknownVersion(entities: [String])
        /// The store could not be read (its file, its metadata).
        case unreadableStore
    }

    /// What kind of problem it is.
    public var reason: Reason
    /// What is wrong, naming the file.
    public var description: String

    init(_ reason: Reason, _ description: String) {
        self.reason = reason
        self.description = description
    }
}
