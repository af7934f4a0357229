import SeedModel
import Foundation
import SeedgenLibXML2

/// One element of a small XML document, copied out of libxml2's tree so that no C pointer
/// outlives the parse.
struct XMLElementNode: Sendable {
    var name: String
    /// Attributes in document order.
    var attributes: [(name: String, value: String)]
    var children: [XMLElementNode]
    /// 1-based line of the start tag.
    var line: Int

    subscript(attribute: String) -> String? {
        attributes.first { $0.name == attribute }?.value
    }

    func children(named name: String) -> [XMLElementNode] {
        children.filter { $0.name == name }
    }
}
