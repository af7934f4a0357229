import Foundation
import SeedModel
import SystemPackage

/// The digests of a file's pieces, filled by two threads at disjoint indexes.
final class PieceDigests: @unchecked Sendable {
    let count: Int
    private var digests: [SHA256.Digest?]
    private let lock = NSLock()
    private var firstFailure: DurableFile.Failure?

    init(count: Int) {
        self.count = count
        digests = Array(repeating: nil, count: count)
    }

    func set(_ index: Int, _ digest: SHA256.Digest) {
        lock.lock()
        digests[index] = digest
        lock.unlock()
    }

    func fail(_ failure: DurableFile.Failure) {
        lock.lock()
        if firstFailure == nil { firstFailure = failure }
        lock.unlock()
    }

    var failure: DurableFile.Failure? {
        lock.lock()
        defer { lock.unlock() }
        return firstFailure
    }

    /// Feeds every digest, in order, to `hasher`.
    func feed(_ hasher: inout SHA256) {
        lock.lock()
        defer { lock.unlock() }
        for digest in digests {
            digest.map { digest in digest.withUnsafeBytes { hasher.update(bufferPointer: $0) } }
        }
    }
}
