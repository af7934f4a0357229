import Foundation

/// Work on a thread of its own, started at once; `result()` waits for it and returns its value
/// or rethrows its error (a file's digest while the file syncs, a sync while the content digest
/// or an installed copy's check runs).
package final class BackgroundResult<Value: Sendable, Failure: Error>: @unchecked Sendable {
    private var outcome: Result<Value, Failure>?
    private let done = DispatchSemaphore(value: 0)

    /// Starts `work` on a new thread.
    package init(_ work: @escaping @Sendable () throws(Failure) -> Value) {
        Thread.detachNewThread { [self] in
            outcome = Result { () throws(Failure) in try work() }
            done.signal()
        }
    }

    /// Waits for the work (as often as asked); the thread's writes are visible after the semaphore.
    package func result() throws(Failure) -> Value {
        done.wait()
        done.signal()
        return try outcome!.get()
    }
}
