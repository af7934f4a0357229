import SeedModel

/// A compiled fetch: SQL with `?` parameters and their values.
package struct CompiledFetch: Sendable, Hashable {
    /// The SELECT.
    package let sql: String
    /// The values of its parameters, in order.
    package let arguments: [SQLValue]
}
