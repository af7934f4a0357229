import Foundation
import SeedModel

/// `NSRegularExpression` is immutable and thread-safe, but not marked `Sendable` on every platform.
final class NSRegularExpressionBox: @unchecked Sendable {
    let value: NSRegularExpression

    init(_ value: NSRegularExpression) {
        self.value = value
    }
}
