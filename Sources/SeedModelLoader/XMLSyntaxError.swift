import SeedModel
import Foundation
import SeedgenLibXML2

/// Where and why a small XML document could not be parsed.
struct XMLSyntaxError: Error, Sendable {
    var line: Int
    var column: Int
    var message: String
}
