import Foundation
import SeedModel

/// A model default value that does not fit its attribute's type.
package struct DefaultValueError: Error, Sendable, CustomStringConvertible {
    /// `'x' is not an Integer 16`.
    package var description: String
}
