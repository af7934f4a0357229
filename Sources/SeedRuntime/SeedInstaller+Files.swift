import Foundation
import SeedModel
import SeedStore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

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
            guard rename(path, target) == 0 else {
                throw InstallError("cannot move the orphaned \(path) aside: \(String(cString: strerror(errno)))")
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
            seed = try SeedCheck.identify(seedPath, model: layout.model)
        } catch {
            throw InstallError("bad seed: \(error)")
        }
        let temporary = DurableFile.temporaryPath(beside: storePath, purpose: Self.temporaryPurpose)
        do {
            try Self.copy(seedPath, to: temporary)
            let sync = Thread.running { () throws(DurableFile.Failure) in try DurableFile.sync(temporary) }
            let checked = Result { () throws(SeedCheck.Failure) in
                let copy = try SeedCheck.identify(temporary, model: layout.model)
                try SeedCheck.checkContents(temporary, identity: copy, depth: depth)
                return copy
            }
            try sync.wait()
            let copy = try checked.get()
            guard copy == seed else {
                throw InstallError("bad copy: \(temporary) does not hold what \(seedPath) holds (Z_UUID \(copy.uuid), not \(seed.uuid))")
            }
        } catch let failure as SeedCheck.Failure {
            unlink(temporary)
            throw InstallError(failure.path == temporary ? "bad seed: \(seedPath): \(failure.reason)" : "bad seed: \(failure)")
        } catch let error as InstallError {
            unlink(temporary)
            throw error
        } catch {
            unlink(temporary)
            throw InstallError("cannot copy the seed \(seedPath) to \(directory): \(error)")
        }
        return temporary
    }

    /// Puts the checked copy in place with `link`, which never replaces an existing file, then
    /// removes the temporary name and syncs the directory.
    func publish(_ temporary: String, replacing backup: String?) throws(InstallError) {
        defer { unlink(temporary) }
        if link(temporary, storePath) != 0 {
            let code = errno
            // Some file systems have no hard links; under the lock, rename after one more look.
            guard code != EEXIST, !FileManager.default.fileExists(atPath: storePath), rename(temporary, storePath) == 0 else {
                // Put the user's store back, again without replacing whatever is there now.
                if let backup, link(backup, storePath) == 0 { unlink(backup) }
                throw InstallError("cannot put the seed in place at \(storePath): \(String(cString: strerror(code == EEXIST ? code : errno)))")
            }
        }
        do {
            try DurableFile.sync(directory)
        } catch {
            throw InstallError("installed \(storePath), but syncing its directory failed: \(error)")
        }
    }

    /// Moves the user's store to a backup name before a replacement, once SQLite has settled
    /// its journal. Fails (and removes `copy`) when another process has the store open.
    func moveStoreAside(removingOnFailure copy: String) throws(InstallError) -> String {
        do {
            let left = try StoreConnection.settle(path: storePath)
            if let sidecar = left.first {
                throw InstallError("cannot replace \(storePath): another process has it open (\(sidecar))")
            }
            let backup = Self.unusedPath(storePath + ".replaced-" + Self.timestamp())
            guard rename(storePath, backup) == 0 else {
                throw InstallError("cannot move \(storePath) aside: \(String(cString: strerror(errno)))")
            }
            return backup
        } catch let error as InstallError {
            unlink(copy)
            throw error
        } catch {
            unlink(copy)
            throw InstallError("cannot replace \(storePath): \(error)")
        }
    }

    /// Copies a file's bytes to a new file (which must not exist), 4 MiB at a time.
    static func copy(_ source: String, to destination: String) throws(DurableFile.Failure) {
        let input = open(source, O_RDONLY | O_CLOEXEC)
        guard input >= 0 else { throw DurableFile.Failure(operation: "read", path: source, code: errno) }
        defer { close(input) }
        let output = open(destination, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard output >= 0 else { throw DurableFile.Failure(operation: "create", path: destination, code: errno) }
        defer { close(output) }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 4 << 20, alignment: 16)
        defer { buffer.deallocate() }
        while true {
            let count = read(input, buffer.baseAddress, buffer.count)
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else { throw DurableFile.Failure(operation: "read", path: source, code: errno) }
            if count == 0 { return }
            var written = 0
            while written < count {
                let step = write(output, buffer.baseAddress! + written, count - written)
                if step < 0 && errno == EINTR { continue }
                guard step > 0 else { throw DurableFile.Failure(operation: "write", path: destination, code: errno) }
                written += step
            }
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

extension Thread {
    /// Work on a thread of its own; `wait()` returns when it is done and rethrows its error.
    final class Running<Failure: Error>: @unchecked Sendable {
        private let done = DispatchSemaphore(value: 0)
        private var failure: Failure?

        fileprivate init(_ work: @escaping @Sendable () throws(Failure) -> Void) {
            Thread.detachNewThread { [self] in
                do throws(Failure) { try work() } catch { failure = error }
                done.signal()
            }
        }

        func wait() throws(Failure) {
            done.wait()
            if let failure { throw failure }
        }
    }

    /// Starts `work` on a new thread.
    static func running<Failure: Error>(_ work: @escaping @Sendable () throws(Failure) -> Void) -> Running<Failure> {
        Running(work)
    }
}
