import SeedModel

/// The kind of one scalar value a source gives, in no format's words: a property list's
/// elements, JSON's scalars and CSV's fields map onto them, and each format names them in its
/// messages (`SourceSyntax.name(ofKind:)`). What a `SourceItem` keeps per value: a byte, no
/// String; checked against the attribute's type (`fits`).
enum ScalarKind: UInt8 {
    /// A dictionary's key (a property list's `<key>`).
    case key
    case string, integer, real, date, data
    /// A Boolean: the kind is the value, which has no text (`boolean`).
    case `true`, `false`
    /// JSON's `null`: the value is not given.
    case null
    /// A binary property list's number (integer or real: the format does not say which).
    case number

    /// The kind's name, as `SourceSyntax` words it per format.
    var name: String {
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

    /// The Boolean a `true` or `false` gives; nil for other kinds.
    var boolean: Bool? {
        switch self {
        case .true: true
        case .false: false
        default: nil
        }
    }

    /// Whether a value of this kind can name an object by key: not a Boolean, not `null`.
    var canBeKey: Bool { boolean == nil && self != .null }

    /// Whether a value of this kind may give an attribute of `type`: a string any type (read by
    /// the type's text rules), else only the kinds that are the type's own, so that a Boolean
    /// never becomes the text of a String.
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
