/// The format a source was written in, for messages: one object and its values are checked by
/// the same code whichever format gave them, and each message names them in that format's words.
enum SourceSyntax {
    case propertyList, json, csv

    /// A value of a property-list `kind` (`string`, `integer`, `true`, `dict`, …), as this
    /// format writes it.
    func name(ofKind kind: String) -> String {
        switch self {
        case .propertyList: return "<\(kind)>"
        case .json, .csv:
            switch kind {
            case "string", "key": return self == .csv ? "a field" : "a string"
            case "integer", "real": return "a number"
            case "dict": return "an object"
            case "array": return "an array"
            default: return kind
            }
        }
    }

    /// "a <dict>" / "an object".
    var anObject: String { self != .propertyList ? "an object" : "a <dict>" }
    /// "the <dict>" / "the object".
    var theObject: String { self != .propertyList ? "the object" : "the <dict>" }
    /// "an <array>" / "an array".
    var anArray: String { self != .propertyList ? "an array" : "an <array>" }
    /// "a <string>" / "a string".
    var aString: String { self != .propertyList ? "a string" : "a <string>" }
    /// "<string>s" / "strings".
    var strings: String { self != .propertyList ? "strings" : "<string>s" }
}
