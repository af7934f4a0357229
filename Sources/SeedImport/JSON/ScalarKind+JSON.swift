import SeedModel

extension ScalarKind {
    /// The kind of a JSON scalar (never an object or an array).
    init(_ value: JSONScanner.Value) {
        switch value {
        case .string: self = .string
        case .integer: self = .integer
        case .real: self = .real
        case .true: self = .true
        case .false: self = .false
        case .null: self = .null
        case .object, .array: preconditionFailure("a container is not a scalar")
        }
    }
}
