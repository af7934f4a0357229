import Dispatch
import Foundation
import SeedModel
import SeedStore

/// A value used under a lock: how a connection (not thread-safe) is shared as `Sendable`.
final class Guarded<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private let value: Value

    init(_ value: Value) {
        self.value = value
    }

    func withValue<Result>(_ body: (Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(value)
    }
}
