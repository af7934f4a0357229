import Foundation
import SeedModel
import SeedStore

/// One value of a property list, with where it was read (line 0 for binary plists).
enum PropertyListNode {
    // Scalars stay inline (an array of a million of them makes no million boxes); the
    // containers are boxed, as they nest.
    case scalar(String, kind: ScalarKind, InputLocation)
    indirect case array([PropertyListNode], InputLocation)
    indirect case dictionary([(key: String, value: PropertyListNode)], InputLocation)

    var location: InputLocation {
        switch self {
        case .scalar(_, _, let location), .array(_, let location), .dictionary(_, let location): location
        }
    }

    /// What the value is, in `syntax`'s words.
    func kindName(_ syntax: SourceSyntax) -> String {
        switch self {
        case .scalar(_, let kind, _): syntax.name(ofKind: kind.element)
        case .array: syntax.name(ofKind: "array")
        case .dictionary: syntax.name(ofKind: "dict")
        }
    }
}
