import SeedStore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An advisory lock (`flock`) on a lock file, held until released or the process ends (a
/// process killed while holding it releases it too). The file itself is never deleted:
/// removing a lock file while others wait on it would let two holders in.
final class FileLock {
    private var descriptor: Int32

    /// Opens (creating when needed) `path` and waits for the exclusive lock.
    init(path: String) throws(DurableFile.Failure) {
        descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw DurableFile.Failure(operation: "create the lock file", path: path, code: errno) }
        while flock(descriptor, LOCK_EX) != 0 {
            guard errno == EINTR else {
                let code = errno
                close(descriptor)
                throw DurableFile.Failure(operation: "lock", path: path, code: code)
            }
        }
    }

    /// Releases the lock.
    func release() {
        guard descriptor >= 0 else { return }
        flock(descriptor, LOCK_UN)
        close(descriptor)
        descriptor = -1
    }

    deinit {
        release()
    }
}
