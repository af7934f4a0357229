import Foundation

extension SQLValue {
    /// A Date as Core Data stores it: seconds since 2001-01-01 00:00:00 UTC.
    public static func date(_ date: Date) -> SQLValue {
        .real(date.timeIntervalSinceReferenceDate)
    }

    /// The number, when this is an integer or a real.
    public var double: Double? {
        switch self {
        case .integer(let number): Double(number)
        case .real(let number): number
        default: nil
        }
    }
}

extension FetchedObject {
    /// A Date attribute's value.
    public func date(_ name: String) -> Date? {
        self[name]?.double.map(Date.init(timeIntervalSinceReferenceDate:))
    }

    /// A number attribute's value.
    public func double(_ name: String) -> Double? {
        self[name]?.double
    }

    /// An integer attribute's value.
    public func integer(_ name: String) -> Int64? {
        self[name]?.integer
    }

    /// A string attribute's value, or a to-one's destination key.
    public func string(_ name: String) -> String? {
        self[name]?.text
    }
}
