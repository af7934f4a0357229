import Foundation

/// Work on a thread of its own, started at once; `result()` waits for it (a file's digest while
/// the file syncs, a first sync while the content digest runs).
final class BackgroundResult<Value: Sendable>: @unchecked Sendable {
    private var outcome: Result<Value, Error>?
    private let done = DispatchSemaphore(value: 0)

    init(_ work: @escaping @Sendable () throws -> Value) {
        Thread.detachNewThread { [self] in
            outcome = Result { try work() }
            done.signal()
        }
    }

    /// Waits for the work; the thread's writes are visible after the semaphore.
    func result() throws -> Value {
        done.wait()
        done.signal()
        return try outcome!.get()
    }
}
