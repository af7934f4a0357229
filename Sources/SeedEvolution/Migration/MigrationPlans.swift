import Foundation
import SeedModel

/// The plans of one migrator, each inferred once: the plan from a version to the bundle's
/// current one depends on the two models alone, so the command's preview (`plan()`), the
/// read-only check before the lock (`check()`) and the run under it (`migrate()`) share one
/// value rather than each inferring its own.
final class MigrationPlans: @unchecked Sendable {
    private let lock = NSLock()
    private var plans: [String: MigrationPlan] = [:]
    /// How many plans were inferred (tests: once per source version).
    private(set) var inferred = 0

    /// The plan from `source` to `destination` (the bundle's current version), inferred on
    /// the first call for `source`'s name.
    func plan(from source: ModelVersions.Version, to destination: ModelVersions.Version) -> MigrationPlan {
        lock.lock()
        defer { lock.unlock() }
        if let plan = plans[source.name] { return plan }
        let plan = MigrationPlan(from: source, to: destination)
        plans[source.name] = plan
        inferred += 1
        return plan
    }
}
