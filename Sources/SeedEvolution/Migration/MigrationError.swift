import SeedStore

/// Why a store cannot be migrated with a model bundle; nothing was changed.
public struct MigrationError: Error, Sendable, CustomStringConvertible {
    /// What kind of problem it is.
    public enum Reason: Sendable, Hashable {
        /// No version of the bundle has the store's entity hashes; these entities' hashes match
        /// no version (or the store has no entity of that name).
        case unknownVersion(entities: [String])
        /// The store could not be read or written at all (missing, not a file, no permission,
        /// an I/O failure).
        case unreadableStore
        /// The store was read, and is refused for what it holds: not an SQLite database, cut
        /// short or damaged, without Core Data's metadata.
        case damagedStore
        /// Core Data would not infer the migration (the plan's refusals say why).
        case refused([MigrationPlan.Refusal])
        /// The store holds what the source version does not describe, or what only Core Data
        /// keeps right (persistent history, triggers calling Core Data's own SQL functions, a
        /// table or column of no entity): migrate it on the device with Core Data.
        case foreignContent(String)
        /// A change Core Data infers that seedgen does not carry out (yet), on this subject.
        case notCarriedOut(subject: String)
        /// The migrated store would not hold every row and link of the store that the plan
        /// keeps, or lacks a value it made required, or `verify` finds its structure broken
        /// (each finding typed, with its subject and counts): the transaction was rolled back,
        /// the store is as it was.
        case notConserved([ConservationFinding])
        /// Writing the store failed; the transaction was rolled back, the store is as it was.
        case writeFailed
        /// The migration would cross a custom stage of the app's SwiftData migration plan (made
        /// at `place`): its code runs only in the app.
        case customStage(place: String)
    }

    /// What kind of problem it is.
    public var reason: Reason
    /// What is wrong, naming the file.
    public var description: String

    init(_ reason: Reason, _ description: String) {
        self.reason = reason
        self.description = description
    }

    /// The error for `underlying`, met reading or writing the store: `unreadableStore` when the
    /// file could not be read or written at all, `damagedStore` when what it holds was refused.
    init(reading underlying: any Error, _ description: String) {
        self.init(isFileAccessFailure(underlying) ? .unreadableStore : .damagedStore, description)
    }
}
