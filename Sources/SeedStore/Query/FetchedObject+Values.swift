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

extension SQLValue {
    /// A Boolean as Core Data stores it: 1 or 0.
    public static func bool(_ value: Bool) -> SQLValue {
        .integer(value ? 1 : 0)
    }

    /// A UUID as Core Data stores it: its 16 bytes.
    public static func uuid(_ value: UUID) -> SQLValue {
        .blob(withUnsafeBytes(of: value.uuid) { Array($0) })
    }

    /// Binary data, as stored (an attribute that allows external storage gets its marker when written).
    public static func data(_ value: Data) -> SQLValue {
        .blob([UInt8](value))
    }

    /// A Decimal as Core Data stores it: a number — an integer when it is one that fits, else
    /// the double nearest its decimal text (`NSDecimalNumber.doubleValue` is not, on Linux:
    /// 19.99 came out as 19.990000000000002).
    public static func decimal(_ value: Decimal) -> SQLValue {
        let text = value.description
        if let integer = Int64(text) { return .integer(integer) }
        return Double(text).map(SQLValue.real) ?? .null
    }
}

extension FetchedObject {
    /// A Boolean attribute's value.
    public func bool(_ name: String) -> Bool? {
        self[name]?.integer.map { $0 != 0 }
    }

    /// A UUID attribute's value (nil unless the store holds 16 bytes).
    public func uuid(_ name: String) -> UUID? {
        guard let bytes = self[name]?.blob, bytes.count == 16 else { return nil }
        return UUID(uuid: bytes.withUnsafeBytes { $0.loadUnaligned(as: uuid_t.self) })
    }

    /// A Binary or Transformable attribute's bytes (for one that allows external storage, the
    /// bytes kept inline without their marker; a value Core Data moved to an external file comes
    /// as stored: its marker and the file's name).
    public func data(_ name: String) -> Data? {
        self[name]?.blob.map { Data($0) }
    }

    /// A Decimal attribute's value: an integer exactly, a double by its shortest decimal text
    /// (0.1 stays 0.1, not the binary double's 0.1000000000000000055…).
    public func decimal(_ name: String) -> Decimal? {
        switch self[name] {
        case .integer(let number)?: Decimal(number)
        case .real(let number)? where number.isFinite: Decimal(string: "\(number)", locale: Locale(identifier: "en_US_POSIX"))
        default: nil
        }
    }
}
