import Foundation
import SeedgenTestSupport
import SystemPackage
import Testing
@testable import SeedStore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Syncing a file to stable storage: `F_FULLFSYNC` first where the platform has it (Apple's
/// `fsync` stops at the drive's cache), `fsync` where the file system refuses it.
@Suite("File sync")
struct FileSystemSyncTests {
    /// Counts the calls of a fake sync that fails with the given codes, then succeeds.
    final class FakeSync {
        var failures: [Int32]
        var calls = 0
        init(failing failures: [Int32] = []) { self.failures = failures }
        func call(_ descriptor: Int32) -> Int32 {
            calls += 1
            guard !failures.isEmpty else { return 0 }
            errno = failures.removeFirst()
            return -1
        }
    }

    @Test("the full sync is enough when it works, retried when interrupted; any other failure falls back to fsync")
    func fullSyncFirst() throws {
        let (full, plain) = (FakeSync(), FakeSync())
        try FileSystem.sync(3, full: full.call, plain: plain.call)
        #expect(full.calls == 1 && plain.calls == 0)

        let (interrupted, unused) = (FakeSync(failing: [EINTR, EINTR]), FakeSync())
        try FileSystem.sync(3, full: interrupted.call, plain: unused.call)
        #expect(interrupted.calls == 3 && unused.calls == 0)

        for refusal in [ENOTSUP, EINVAL, ENOTTY] {
            let (refused, fallback) = (FakeSync(failing: [refusal]), FakeSync(failing: [EINTR]))
            try FileSystem.sync(3, full: refused.call, plain: fallback.call)
            #expect(refused.calls == 1 && fallback.calls == 2, "errno \(refusal)")
        }
    }

    @Test("without a full sync, fsync alone, retried when interrupted; its failure is thrown")
    func plainSync() throws {
        let plain = FakeSync(failing: [EINTR])
        try FileSystem.sync(3, full: nil, plain: plain.call)
        #expect(plain.calls == 2)
        #expect(throws: Errno.ioError) { try FileSystem.sync(3, full: FakeSync(failing: [ENOTSUP]).call, plain: FakeSync(failing: [EIO]).call) }
    }

    @Test("a real file syncs to stable storage and to the drive; a missing one is a failure naming it")
    func realFile() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("file")
        try Data("bytes".utf8).write(to: URL(fileURLWithPath: path))
        try DurableFile.sync(path)
        try DurableFile.sync(path, toStableStorage: false)
        let missing = directory.path("missing")
        #expect { try DurableFile.sync(missing) } throws: { "\($0)".contains(missing) }
    }
}
