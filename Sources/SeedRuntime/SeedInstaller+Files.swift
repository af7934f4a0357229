import Foundation
import SeedModel
import SeedStore
import SystemPackage

extension SeedInstaller {
    /// Removes temporary copies and fill folders an interrupted start left (only ever called
    /// under the lock, so no other process is writing one).
    func removeStrayTemporaries() -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return names.filter { $0.hasPrefix(temporaryPrefix) }.sorted().compactMap { name in
            let path = URL(fileURLWithPath: directory).appendingPathComponent(name).path
            return (try? FileManager.default.removeItem(atPath: path)) != nil ? path : nil
        }
    }

    /// A `-wal`, `-shm` or `-journal` without its store belongs to a store that is gone; SQLite
    /// would apply it to a new file of the same name. It is moved aside, not deleted.
    func moveOrphanedSidecarsAside() throws(InstallError) -> [String] {
        var moved: [String] = []
        for suffix in ["-wal", "-shm", "-journal"] {
            let path = storePath + suffix
            guard FileManager.default.fileExists(atPath: path) else { continue }
            let target = Self.unusedPath(path + ".orphaned-" + Self.timestamp())
            do {
                try FileSystem.rename(path, to: target)
            } catch {
                throw InstallError(.fileSystem(operation: "move aside", path: path, errno: error),
                                   "cannot move the orphaned \(path) aside: \(error)")
            }
            moved.append(target)
        }
        return moved
    }

    /// Copies the seed to a new temporary file beside the store, then syncs the copy while
    /// checking it (both at once). Returns its path; on failure nothing is left behind.
    func copyAndCheckSeed() throws(InstallError) -> String {
        let seed: SeedCheck.Identity
        do {
            seed = try SeedCheck.identify(seedPath, identity: model)
        } catch {
            throw InstallError(badSeed: error)
        }
        let temporary = DurableFile.temporaryPath(beside: storePath, purpose: Self.temporaryPurpose)
        do {
            try Self.copy(seedPath, to: temporary)
            let sync = BackgroundResult { () throws(DurableFile.Failure) in try DurableFile.sync(temporary) }
            let checked = Result { () throws(SeedCheck.Failure) in
                let copy = try SeedCheck.identify(temporary, identity: model)
                try SeedCheck.checkContents(temporary, identity: copy, depth: depth)
                return copy
            }
            try sync.result()
            let copy = try checked.get()
            guard copy == seed else {
                let problem = "\(temporary) does not hold what \(seedPath) holds (Z_UUID \(copy.uuid), not \(seed.uuid))"
                throw InstallError(.badSeed(path: seedPath, problem: problem), "bad copy: \(problem)")
            }
        } catch let failure as SeedCheck.Failure {
            DurableFile.removeIfPresent(temporary)
            // The copy failed a check: the seed it came from is what is bad.
            throw InstallError(badSeed: failure.path == temporary ? SeedCheck.Failure(path: seedPath, reason: failure.reason) : failure)
        } catch let error as InstallError {
            DurableFile.removeIfPresent(temporary)
            throw error
        } catch let failure as DurableFile.Failure {
            DurableFile.removeIfPresent(temporary)
            throw InstallError(failure, context: "cannot copy the seed \(seedPath) to \(directory)")
        } catch {
            DurableFile.removeIfPresent(temporary)
            throw InstallError(.fileSystem(operation: "copy", path: seedPath, errno: .ioError), "cannot copy the seed \(seedPath) to \(directory): \(error)")
        }
        return temporary
    }

    /// Puts the checked copy in place with `link`, which never replaces an existing file, then
    /// removes the temporary name and syncs the directory.
    func publish(_ temporary: String, replacing backup: String?) throws(InstallError) {
        defer { DurableFile.removeIfPresent(temporary) }
        do {
            try FileSystem.link(temporary, to: storePath)
        } catch let linkError {
            do throws(Errno) {
                // Some file systems have no hard links; under the lock, rename after one more look.
                guard linkError != .fileExists, !FileManager.default.fileExists(atPath: storePath) else { throw linkError }
                try FileSystem.rename(temporary, to: storePath)
            } catch {
                // Put the user's store back, again without replacing whatever is there now.
                if let backup, (try? FileSystem.link(backup, to: storePath)) != nil { DurableFile.removeIfPresent(backup) }
                throw InstallError(.fileSystem(operation: "put the seed in place at", path: storePath, errno: error),
                                   "cannot put the seed in place at \(storePath): \(error)")
            }
        }
        do {
            try DurableFile.sync(directory)
        } catch {
            throw InstallError(error, context: "installed \(storePath), but syncing its directory failed")
        }
    }

    /// Moves the user's store to a backup name before a replacement, once SQLite has settled
    /// its journal. Fails (and removes `copy`) when another process has the store open.
    func moveStoreAside(removingOnFailure copy: String) throws(InstallError) -> String {
        do {
            let left = try StoreConnection.settle(path: storePath)
            if let sidecar = left.first {
                throw InstallError(.storeInUse(path: storePath, evidence: sidecar), "cannot replace \(storePath): another process has it open (\(sidecar))")
            }
            let backup = Self.unusedPath(storePath + ".replaced-" + Self.timestamp())
            do {
                try FileSystem.rename(storePath, to: backup)
            } catch {
                throw InstallError(.fileSystem(operation: "move aside", path: storePath, errno: error), "cannot move \(storePath) aside: \(error)")
            }
            return backup
        } catch let error as InstallError {
            DurableFile.removeIfPresent(copy)
            throw error
        } catch let error as SQLiteError where error.code.primary == .busy || error.code.primary == .locked {
            DurableFile.removeIfPresent(copy)
            throw InstallError(.storeInUse(path: storePath, evidence: error.message), "cannot replace \(storePath): \(error)")
        } catch {
            DurableFile.removeIfPresent(copy)
            throw InstallError(.storeUnreadable(path: storePath, problem: "\(error)"), "cannot replace \(storePath): \(error)")
        }
    }

    /// Copies a file's bytes to a new file (which must not exist), 4 MiB at a time.
    static func copy(_ source: String, to destination: String) throws(DurableFile.Failure) {
        let input = try DurableFile.open(source, .readOnly, for: "read")
        defer { try? input.close() }
        let output = try DurableFile.open(destination, .writeOnly, options: [.create, .exclusiveCreate],
                                          permissions: [.ownerReadWrite, .groupRead, .otherRead], for: "create")
        defer { try? output.close() }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 4 << 20, alignment: 16)
        defer { buffer.deallocate() }
        while true {
            let count = try DurableFile.attempt("read", source) { try input.read(into: buffer) }
            if count == 0 { return }
            _ = try DurableFile.attempt("write", destination) { try output.writeAll(UnsafeRawBufferPointer(rebasing: buffer[0..<count])) }
        }
    }

    static func timestamp() -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd-HHmmss"
        return formatter.string(from: Date())
    }

    /// `path`, or `path-2`, `path-3`, … when it is taken.
    static func unusedPath(_ path: String) -> String {
        var candidate = path
        var number = 2
        while FileManager.default.fileExists(atPath: candidate) {
            candidate = "\(path)-\(number)"
            number += 1
        }
        return candidate
    }
}
