import SeedStore
import SystemPackage

/// An advisory lock (`flock`) on a lock file, held until released or the process ends (a
/// process killed while holding it releases it too). The file itself is never deleted:
/// removing a lock file while others wait on it would let two holders in.
final class FileLock {
    private var descriptor: FileDescriptor?

    /// Opens (creating when needed) `path` and waits for the exclusive lock.
    init(path: String) throws(DurableFile.Failure) {
        let descriptor = try DurableFile.open(path, .readWrite, options: .create, permissions: [.ownerReadWrite, .groupRead, .otherRead],
                                              for: "create the lock file")
        do {
            try FileSystem.lockExclusively(descriptor)
        } catch {
            try? descriptor.close()
            throw DurableFile.Failure(operation: "lock", path: path, errno: error)
        }
        self.descriptor = descriptor
    }

    /// Releases the lock.
    func release() {
        guard let descriptor else { return }
        FileSystem.unlock(descriptor)
        try? descriptor.close()
        self.descriptor = nil
    }

    deinit {
        release()
    }
}
