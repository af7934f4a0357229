extension ScalarKind {
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
}
