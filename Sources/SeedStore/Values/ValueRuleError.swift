import Foundation
import SeedModel

/// A rule of the model that cannot be read.
package struct ValueRuleError: Error, Sendable, CustomStringConvertible {
    package var description: String

    init(_ description: String) {
        self.description = description
    }
}
