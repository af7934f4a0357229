import Foundation
import SeedModel
import SeedStore

/// One value of a property list, with where it was read (line 0 for binary plists).
enum SourceNode {
    // A scalar's text is empty for a Boolean and JSON's null: the kind is the value.
    // Scalars stay inline (an array of a million of them makes no million boxes), an array of
    // strings compact (`SourceItems`); the containers are boxed, as they nest.
    case scalar(String, kind: ScalarKind, InputLocation)
    indirect case array(SourceItems, InputLocation)
    indirect case dictionary([(key: String, value: SourceNode)], InputLocation)

    /// How deep a tree may nest (in every format that has nesting): bounded, so that no input
    /// exhausts the stack while it is read, written or freed.
    static let maximumDepth = 512

    var location: InputLocation {
        switch self {
        case .scalar(_, _, let location), .array(_, let location), .dictionary(_, let location): location
        }
    }

    /// What the value is, in `syntax`'s words.
    func kindName(_ syntax: SourceSyntax) -> String {
        switch self {
        case .scalar(_, let kind, _): syntax.name(ofKind: kind.name)
        case .array: syntax.name(ofKind: "array")
        case .dictionary: syntax.name(ofKind: "dict")
        }
    }
}
