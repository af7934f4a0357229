/// A store that holds what Core Data would not read back as the model's values.
package struct UnreadableStoreError: Error, Sendable, CustomStringConvertible {
    /// What is wrong and where, as `verify` would report it.
    package var description: String
}
