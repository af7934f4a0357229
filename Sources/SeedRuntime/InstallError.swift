import SeedStore
import SystemPackage

/// Why the seed could not be installed; nothing was installed and no store was changed.
///
/// `reason` says what kind of problem it is, for an app to act on (tell the user the disk is
/// full, retry when the store is in use, report a broken app bundle); `description` says it in
/// words, naming the file.
public struct InstallError: Error, Sendable, CustomStringConvertible {
    /// What kind of problem stopped the install.
    public enum Reason: Sendable, Equatable {
        /// The bundled seed (or the copy made of it) failed a check: `path` and what is wrong.
        case badSeed(path: String, problem: String)
        /// A file-system call failed: what was being done, on which path, and the error
        /// (`.noSpace`, `.permissionDenied`, `.readOnlyFileSystem`, …).
        case fileSystem(operation: String, path: String, errno: Errno)
        /// The store is open in another process (`evidence`: the journal or log beside it).
        case storeInUse(path: String, evidence: String)
        /// The store could not be opened to compare it or to run its initialisation check.
        case storeUnreadable(path: String, problem: String)
        /// The app's fill step (`FirstStart`) failed.
        case fillFailed(path: String, problem: String)
        /// The policy needs the model's initialisation check, and the installer was given only
        /// the model's version hashes (no `StoreLayout`, so no fetch request template).
        case initialisationCheckUnavailable(path: String)
        /// The policy `update` could not bring the seed into the store (no seed record in the
        /// store, another model version, no model layout given, a write that failed): the store
        /// is as it was.
        case updateFailed(path: String, problem: String)
    }

    /// What kind of problem stopped the install.
    public var reason: Reason
    /// What went wrong, naming the file.
    public var description: String

    init(_ reason: Reason, _ description: String) {
        self.reason = reason
        self.description = description
    }

    /// A failed file-system call, in its own words (`cannot rename …: No space left on device`).
    init(_ failure: DurableFile.Failure, context: String? = nil) {
        self.init(.fileSystem(operation: failure.operation, path: failure.path, errno: failure.errno),
                  context.map { "\($0): \(failure)" } ?? failure.description)
    }

    /// A seed that failed a check (`bad seed: /app/Seed.sqlite: truncated: …`).
    init(badSeed failure: SeedCheck.Failure) {
        self.init(.badSeed(path: failure.path, problem: failure.reason), "bad seed: \(failure)")
    }
}
