import SeedStore

/// Why a seed update was not made; the store is as it was.
package struct SeedUpdateError: Error, Sendable, CustomStringConvertible {
    /// What kind of problem it is.
    package enum Reason: Sendable, Hashable {
        /// The store or the new seed cannot be read or written at all (missing, not a file, no
        /// permission, an I/O failure).
        case unreadable
        /// The store or the new seed was read, and is refused for what it holds: not an SQLite
        /// database, cut short or damaged, without its model or metadata, or a seed record that
        /// does not add up.
        case damaged
        /// The store carries no record of the seed it was installed from (built by a seedgen
        /// without seed updates, or rewritten by something that dropped the record): which of
        /// its objects the user changed cannot be told.
        case noSeedRecord
        /// The store's model version is not the new seed's, and it was not (or could not be)
        /// migrated to it first: the migration's refusal is in the description.
        case otherModelVersion
        /// Writing failed; the transaction was rolled back.
        case writeFailed
        /// The update's own check before `COMMIT` found that its result does not hold what it
        /// must (`UpdateLedger`: a row lost or made beyond what the report says, a value the user
        /// changed no longer there); it was rolled back. Each finding names the entity and both counts.
        case notConserved([ConservationFinding])
    }

    /// What kind of problem it is.
    package var reason: Reason
    /// What is wrong, naming the file.
    package var description: String

    init(_ reason: Reason, _ description: String) {
        self.reason = reason
        self.description = description
    }

    /// The error for `underlying`, met reading or writing a file: `unreadable` when the file
    /// could not be read or written at all, `damaged` when what it holds was refused.
    init(reading underlying: any Error, _ description: String) {
        self.init(isFileAccessFailure(underlying) ? .unreadable : .damaged, description)
    }
}
