import SeedModel

/// The kind of one scalar value of a source item, named after the property-list element that
/// gives it (JSON and CSV values map onto them): what a flat item keeps per value, a byte and
/// no String, and checks against the attribute's type.
enum ScalarKind: UInt8 {
    case key, string, integer, real, date, data, `true`, `false`
    /// JSON's `null`: the value is not given.
    case null
    /// A binary property list's number (integer or real: the format does not say which).
    case number

    /// The kind a property-list element names; nil for a container or another element.
    init?(element: String) {
        switch element {
        case "key": self = .key
        case "string": self = .string
        case "integer": self = .integer
        case "real": self = .real
        case "date": self = .date
        case "data": self = .data
        case "true": self = .true
        case "false": self = .false
        default: return nil
        }
    }

    /// The element's name, as trees and messages give the kind.
    var element: String {
        switch self {
        case .key: "key"
        case .string: "string"
        case .integer: "integer"
        case .real: "real"
        case .date: "date"
        case .data: "data"
        case .true: "true"
        case .false: "false"
        case .null: "null"
        case .number: "number"
        }
    }

    /// Whether a value of this kind may give an attribute of `type`: a string any type (read by
    /// the type's text rules), else only the kinds that are the type's own, so that a `<true/>`
    /// never becomes the text "YES" of a String.
    func fits(_ type: AttributeType) -> Bool {
        switch self {
        case .string, .key: true
        case .integer, .real, .number: [.integer16, .integer32, .integer64, .decimal, .double, .float, .boolean].contains(type)
        case .true, .false: type == .boolean
        case .date: type == .date
        case .data: type == .binary || type == .transformable
        case .null: false
        }
    }
}
