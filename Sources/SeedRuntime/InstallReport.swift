import SeedEvolution
import SeedStore

/// What `SeedInstaller.install()` did.
public struct InstallReport: Sendable, Equatable {
    /// What happened to the store.
    public enum Action: Sendable, Equatable {
        /// There was no store; the seed was copied, checked and put in place.
        case installed
        /// A store was there and was kept as it is.
        case alreadyPresent
        /// The store was replaced by the seed (the policy asked for it); the old one was moved to `backup`.
        case replaced(backup: String)
        /// The seed was brought into the store, keeping what the user did (policy `update`).
        case updated(SeedUpdateReport)
    }

    /// How the bundled seed compares with the store that was there.
    public enum SeedComparison: Sendable, Equatable {
        /// The store was installed from this seed (or was just installed).
        case same
        /// The seed differs from the one the store came from; one line per difference.
        case differs([String])
        /// The seed could not be read (the store was kept); why.
        case unavailable(String)
    }

    /// What happened to the store.
    public var action: Action
    /// The store file.
    public var storePath: String
    /// How the seed compares with the store that was there.
    public var seed: SeedComparison
    /// Files left by an interrupted install that were removed, and orphaned journals that
    /// were moved aside (`<name>.orphaned-<time>`).
    public var cleanedUp: [String]
}
