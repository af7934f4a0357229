import Foundation
import SystemPackage
import SeedModel

/// `StoreBuilder.sha256(ofFile:)` on a thread of its own, started at once.
final class FileDigestThread: @unchecked Sendable {
    private let path: String
    private var digest: Result<String, Error>?
    private let done = DispatchSemaphore(value: 0)

    init(path: String) {
        self.path = path
        Thread.detachNewThread { [self] in
            digest = Result { try StoreBuilder.sha256(ofFile: path) }
            done.signal()
        }
    }

    /// Waits for the digest; the thread's writes are visible after the semaphore.
    func result() throws -> String {
        done.wait()
        done.signal()
        return try digest!.get()
    }
}
