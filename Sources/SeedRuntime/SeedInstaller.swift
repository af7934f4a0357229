import Foundation
import SeedModel
import SeedEvolution
import SeedStore
import SystemPackage

/// Installs an app's bundled seed store as the user's store on first start, safely under
/// crashes and concurrent starts.
///
/// Under an advisory lock beside the destination it re-checks that no store exists, copies
/// the seed to a temporary file in the same directory, syncs it, checks the copy (SQLite
/// header and length, model hashes, then the seal, or `quick_check` and the content digest),
/// links it into place (never over an existing file) and syncs the directory. A crash at any
/// point leaves either no store or a whole one; the next start removes what it left.
///
/// An app that will ever ship a newer seed installs with the policy `.update` from its first
/// release: only a store installed so records the seed it came from, and only such a store can
/// take the next seed while keeping what the user did.
///
/// ```swift
/// let layout = try StoreLayout(modelCarriedBy: bundledSeed)
/// let store = DataDirectory.path(forApp: "emplan") + "/EMPlan.sqlite"
/// let installer = SeedInstaller(seedPath: bundledSeed, storePath: store, layout: layout, policy: .update)
/// do {
///     let report = try installer.install()   // .installed, .alreadyPresent, .updated(…), …
///     print(report.action)
/// } catch {
///     switch error.reason {                   // install() throws only InstallError
///     case .storeInUse: break                 // another process has the store open: try later
///     default: print(error)                   // names the file and what is wrong
///     }
/// }
/// ```
public struct SeedInstaller: Sendable {
    /// What to do when a store exists and the bundled seed differs from the one it came from.
    public enum Policy: Sendable {
        /// Keep the user's store (the default); the difference is reported.
        case keep
        /// Replace the store when the model's initialisation check finds nothing in it (even
        /// when it came from this seed).
        case replaceIfNotInitialised
        /// Replace the store when the seed differs from the one it came from; the old one is
        /// kept beside it as a backup.
        case replace
        /// Bring the seed into the store when it differs from the seed the store holds, keeping
        /// what the user did (`SeedUpdater`): the seed's new objects added, its changes and
        /// removals made except where the user changed or deleted the object or still points
        /// at it; the user's own objects untouched. A store of an older model version is first
        /// migrated to the seed's, as Core Data's lightweight migration would, with the models
        /// the seed and the store carry (so do it before Core Data opens the store).
        ///
        /// A store this policy installs records the seed it came from (`SEEDGEN_PACKED`: ten
        /// bytes an object, from a digest of its row and of its key): a seed built with
        /// `seedgen build --updatable` carries it, and its install is a copy; into any other
        /// seed's copy it is written before the copy is put in place (digesting every row once).
        /// An app that never updates its seed pays for it neither in its download nor on the
        /// device. A store installed under another policy records nothing and cannot be updated
        /// later.
        case update
    }

    /// The bundled seed store.
    public var seedPath: String
    /// Where the user's store lives.
    public var storePath: String
    /// The app's model as its entity version hashes: the seed must have been made for it.
    public var model: ModelIdentity
    /// The app's model as a store layout, when the app has the model's source (Linux): only the
    /// initialisation check (`replaceIfNotInitialised`, `FirstStart`) needs it.
    public var layout: StoreLayout?
    /// What to do with a store made from another seed.
    public var policy: Policy
    /// How much of the copy's contents to check.
    public var depth: SeedCheck.Depth
    /// The fetch request template that tells whether a store is initialised (`replaceIfNotInitialised`).
    public var initialisationCheck: String

    /// An installer of `seedPath` to `storePath` for `layout`'s model.
    public init(seedPath: String, storePath: String, layout: StoreLayout, policy: Policy = .keep,
                depth: SeedCheck.Depth = .standard, initialisationCheck: String = "initialisationCheck") {
        self.init(seedPath: seedPath, storePath: storePath, model: ModelIdentity(model: layout.model), policy: policy, depth: depth)
        self.layout = layout
        self.initialisationCheck = initialisationCheck
    }

    /// An installer of `seedPath` to `storePath` for the model with these version hashes (an
    /// app on Apple platforms: `NSManagedObjectModel.entityVersionHashesByName`; anywhere:
    /// `seedgen hash --json`). Without a layout there is no initialisation check, so the
    /// policy `replaceIfNotInitialised` is refused.
    public init(seedPath: String, storePath: String, model: ModelIdentity, policy: Policy = .keep, depth: SeedCheck.Depth = .standard) {
        self.seedPath = seedPath
        self.storePath = storePath
        self.model = model
        self.layout = nil
        self.policy = policy
        self.depth = depth
        self.initialisationCheck = "initialisationCheck"
    }

    var directory: String { URL(fileURLWithPath: storePath).deletingLastPathComponent().path }
    var storeName: String { URL(fileURLWithPath: storePath).lastPathComponent }
    /// What this installer's temporary files are named for (`DurableFile.temporaryPath`).
    static let temporaryPurpose = "seedgen-install"
    /// The prefix of those files: `.<store>.seedgen-install-`.
    var temporaryPrefix: String { ".\(storeName).\(Self.temporaryPurpose)-" }

    /// Installs the seed when no store exists; otherwise compares and applies the policy.
    @discardableResult
    public func install() throws(InstallError) -> InstallReport {
        if let report = reportWithoutWriting() { return report }
        return try withLock { () throws(InstallError) in try installLocked() }
    }

    /// A store that is there, in a directory this process cannot write (an app's read-only
    /// container, a store shipped on read-only media): nothing could be installed, cleaned up or
    /// locked there, and nothing needs to be when the policy keeps the store. So the store is
    /// reported as it is, with nothing written; nil when there is something to do (the lock,
    /// and its clear error, come next).
    func reportWithoutWriting() -> InstallReport? {
        guard FileSystem.kind(of: storePath) == .regular, !FileManager.default.isWritableFile(atPath: directory) else { return nil }
        let comparison = compareWithSeed()
        let keeps: Bool
        switch policy {
        case .keep: keeps = true
        case .replaceIfNotInitialised:
            if case .unavailable = comparison { keeps = true } else { keeps = (try? storeIsInitialised()) == true }
        case .replace, .update:
            if case .differs = comparison { keeps = false } else { keeps = true }
        }
        return keeps ? InstallReport(action: .alreadyPresent, storePath: storePath, seed: comparison, cleanedUp: []) : nil
    }

    /// Runs `body` holding the store's lock, in a directory that exists.
    func withLock<Result>(_ body: () throws(InstallError) -> Result) throws(InstallError) -> Result {
        try createDirectory()
        let lock: FileLock
        do {
            lock = try FileLock(path: URL(fileURLWithPath: directory).appendingPathComponent(".\(storeName).seedgen-lock").path)
        } catch {
            throw InstallError(error)
        }
        defer { lock.release() }
        return try body()
    }

    /// `install()` for a caller that holds the lock; `cleaningUp: false` keeps temporaries
    /// (the caller's own fill folder is one).
    func installLocked(cleaningUp: Bool = true) throws(InstallError) -> InstallReport {
        var cleanedUp = cleaningUp ? removeStrayTemporaries() : []
        let kind = FileSystem.kind(of: storePath)
        if let what = kind.notAFile {
            // Never open it: a FIFO would block forever (under the lock), and it is no store.
            throw InstallError(.fileSystem(operation: "use as the store", path: storePath, errno: kind == .directory ? .isDirectory : .invalidArgument),
                               "cannot install at \(storePath): it is \(what), not a store file")
        }
        guard FileManager.default.fileExists(atPath: storePath) else {
            cleanedUp += try moveOrphanedSidecarsAside()
            let copy = try copyAndCheckSeed()
            if policy == .update { try recordSeed(in: copy) }
            try publish(copy, replacing: nil)
            return InstallReport(action: .installed, storePath: storePath, seed: .same, cleanedUp: cleanedUp)
        }
        let comparison = compareWithSeed()
        let kept = InstallReport(action: .alreadyPresent, storePath: storePath, seed: comparison, cleanedUp: cleanedUp)
        switch policy {
        case .keep:
            return kept
        case .replaceIfNotInitialised:
            if case .unavailable = comparison { return kept }
            if try storeIsInitialised() { return kept }
        case .replace:
            guard case .differs = comparison else { return kept }
        case .update:
            guard case .differs = comparison else { return kept }
            return InstallReport(action: .updated(try updateStore()), storePath: storePath, seed: comparison, cleanedUp: cleanedUp)
        }
        let copy = try copyAndCheckSeed()
        let backup = try moveStoreAside(removingOnFailure: copy)
        try publish(copy, replacing: backup)
        return InstallReport(action: .replaced(backup: backup), storePath: storePath, seed: comparison, cleanedUp: cleanedUp)
    }

    /// Records the seed in the checked copy at `copy` (`SeedRecord.recordInstalledCopy`), which
    /// is removed when that fails.
    func recordSeed(in copy: String) throws(InstallError) {
        do {
            _ = try SeedRecord.recordInstalledCopy(at: copy, layout: layout)
        } catch {
            DurableFile.removeIfPresent(copy)
            if let error = error as? SQLiteError, error.code.primary == .full || error.code.primary == .ioError {
                throw InstallError(.fileSystem(operation: "record the seed in", path: copy, errno: error.code.primary == .full ? .noSpace : .ioError),
                                   "cannot record the seed in its copy \(copy): \(error)")
            }
            throw InstallError(.badSeed(path: seedPath, problem: "\(error)"), "bad seed: cannot record \(seedPath) as installed: \(error)")
        }
    }

    /// Brings the seed into the store in place, in one SQLite transaction (`SeedUpdater`): with
    /// the models the seed and the store carry (a store of an older model version is migrated
    /// first), else, for a seed that carries none, with the installer's layout.
    func updateStore() throws(InstallError) -> SeedUpdateReport {
        do {
            if let layout, !SeedUpdater.seedCarriesModel(at: seedPath) {
                return try SeedUpdater(storeAt: storePath, seedAt: seedPath, layout: layout).update()
            }
            return try SeedUpdater(storeAt: storePath, seedAt: seedPath, model: model).update()
        } catch {
            // The update's message names the store already when it is the store's problem.
            throw InstallError(.updateFailed(path: storePath, problem: error.description), "cannot update \(storePath): \(error.description.droppingPathPrefix(storePath))")
        }
    }

    /// How the seed compares with the store there: the model it was made for and the digest of the seed it came from.
    func compareWithSeed() -> InstallReport.SeedComparison {
        let seed: SeedCheck.Identity
        do {
            seed = try SeedCheck.identify(seedPath, identity: model)
        } catch {
            return .unavailable("\(error)")
        }
        let store: StoreMetadata
        do {
            store = try StoreConnection.metadata(ofStoreAt: storePath)
        } catch {
            return .differs(["the installed store's metadata cannot be read (\(error))"])
        }
        var differences: [String] = []
        if !store.differences(from: model).isEmpty {
            differences.append("the installed store was made for another version of the model")
        }
        if seed.metadata.originDigest != store.originDigest {
            differences.append("the seed's content digest \(seed.metadata.originDigest ?? "(none)") is not the one the store was installed from (\(store.originDigest ?? "none recorded"))")
        }
        return differences.isEmpty ? .same : .differs(differences)
    }

    /// Whether the store there holds its data (the `initialisationCheck` template finds something).
    func storeIsInitialised() throws(InstallError) -> Bool {
        guard let layout else {
            throw InstallError(.initialisationCheckUnavailable(path: storePath),
                               "cannot tell whether \(storePath) is initialised: the installer knows the model by its version hashes only (give it the model's StoreLayout to run '\(initialisationCheck)')")
        }
        do {
            return try StoreConnection(path: storePath, layout: layout, access: .readOnly).isInitialised(template: initialisationCheck)
        } catch {
            // A store made for another model version has no answer to give; it is not replaced blindly.
            throw InstallError(.storeUnreadable(path: storePath, problem: "\(error)"), "cannot tell whether \(storePath) is initialised: \(error)")
        }
    }

    private func createDirectory() throws(InstallError) {
        do {
            try FileSystem.makeDirectories(directory)
        } catch {
            throw InstallError(.fileSystem(operation: "create the data directory", path: directory, errno: error),
                               "cannot create the data directory \(directory): \(error)")
        }
        guard FileManager.default.isWritableFile(atPath: directory) else {
            throw InstallError(.fileSystem(operation: "install into", path: directory, errno: .permissionDenied),
                               "cannot install into \(directory): the directory is not writable")
        }
    }
}
