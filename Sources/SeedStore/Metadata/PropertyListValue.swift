/// A property-list value, as seedgen writes it into `Z_METADATA.Z_PLIST`.
package enum PropertyListValue: Sendable, Hashable {
    case string(String)
    case integer(Int64)
    case real(Double)
    case boolean(Bool)
    /// Seconds since 2001-01-01T00:00:00Z.
    case date(Double)
    case data([UInt8])
    case array([PropertyListValue])
    case dictionary([String: PropertyListValue])
    /// A keyed archiver's reference to an object of its `$objects` (`CF$UID`).
    case uid(UInt64)
}
