import Foundation
import SeedModel
import SeedStore

/// Why a source value could not become an attribute's value.
package struct ConversionFailure: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong, e.g. `'abc' is not a Double`.
    package var description: String
}
