import SeedModel
import Foundation
import SeedgenLibXML2

/// Holds the first error libxml2 reports while parsing one document.
final class FirstErrorBox {
    var error: XMLSyntaxError?
}
