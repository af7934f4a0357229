import Foundation
import SeedModel
import SeedStore

/// Turns source text into the value Core Data stores for one attribute, straight from bytes.
///
/// Numbers, booleans and dates ignore surrounding white space; strings are kept as written.
/// Booleans: `YES`/`NO`, `true`/`false`, `1`/`0` in any case. Dates: the attribute's own
/// pattern (`userInfo` key `dateFormat`), else the pattern given, else ISO 8601; a date without
/// a zone is at `defaultOffset` seconds east of UTC (0: UTC); `@` followed by a number gives the
/// seconds since 2001-01-01T00:00:00Z exactly, whatever the pattern (how dumps write dates). Binary and Transformable values
/// are base64 (white space between the characters is allowed, nothing else); a Binary attribute
/// that allows external storage is kept in the store behind Core Data's marker byte; UUIDs are
/// 16-byte blobs. A SwiftData enum's value (`AttributeDescription.declaredValue`) is one of its
/// cases, given by its raw value or by its name, and stored as its raw value (the name for an
/// enum without raw values); any other value is refused, naming the cases. A SwiftData array
/// is given as JSON text (`["a","b"]`): inside a struct it is stored as that text, a `[String]`
/// as its keyed archive (`StringArrayArchive`).
package final class ValueConverter: Sendable {
    /// The attribute's storage type.
    package let type: AttributeType
    /// The date pattern in force for a Date attribute.
    package let datePattern: DatePattern
    /// Seconds east of UTC for dates written without a zone.
    package let defaultOffset: Int
    /// True for a Binary attribute that allows external storage: values get the inline marker.
    private let marksExternalBinary: Bool
    /// A SwiftData enum's cases; nil for any other attribute.
    private let cases: EnumCases?
    /// A SwiftData array (inside a struct, or a `[String]`): JSON text (`[…]`) is stored as
    /// `SwiftDataArrayText` says; nil for any other attribute.
    private let array: DeclaredValue?

    /// A converter for `attribute`; `datePattern` applies when the attribute names none, and
    /// `overridePattern` (a per-attribute choice on the command line) wins over the model.
    package init(attribute: AttributeDescription, datePattern: DatePattern = .iso8601, overridePattern: DatePattern? = nil,
                defaultOffset: Int = 0) throws(DatePattern.PatternError) {
        self.type = attribute.type
        self.marksExternalBinary = attribute.storesExternalBinaryMarker
        self.array = attribute.declaredValue?.isArray == true ? attribute.declaredValue : nil
        let own = try attribute.userInfo["dateFormat"].map { (text) throws(DatePattern.PatternError) in try DatePattern(text) }
        self.datePattern = overridePattern ?? own ?? datePattern
        self.defaultOffset = defaultOffset
        if let declared = attribute.declaredValue?.cases {
            // Each case's stored value, as the attribute's type reads its text; a raw value that
            // is no value of the type can never match, so it stays out.
            var plain = attribute
            plain.declaredValue = nil
            let converter = try ValueConverter(attribute: plain, datePattern: datePattern, overridePattern: overridePattern, defaultOffset: defaultOffset)
            self.cases = EnumCases(declared.compactMap { member in (try? converter.convert(member.rawValue ?? member.name)).map { (member.name, $0) } })
        } else {
            self.cases = nil
        }
    }

    /// Converts a string.
    package func convert(_ text: String) throws(ConversionFailure) -> SQLValue {
        // Text kept as written is the string itself: no copy of its bytes (a reference by key's
        // text, for one, is converted so).
        if cases == nil, type == .string || type == .uri { return .text(text) }
        var text = text
        return try text.withUTF8 { bytes in Result { () throws(ConversionFailure) in try convert(bytes) } }.get()
    }

    /// Converts UTF-8 bytes.
    package func convert(_ raw: UnsafeBufferPointer<UInt8>) throws(ConversionFailure) -> SQLValue {
        guard let cases else { return try storedValue(raw) }
        // A raw value first (as stored), then a case's name.
        if let value = try? storedValue(raw), cases.values.contains(value) { return value }
        if let value = cases.byName[String(decoding: raw, as: UTF8.self)] { return value }
        throw failure(raw, "is no case of the enum: give a raw value or a case name: \(cases.listed)")
    }

    /// An enum's cases, looked up by stored value and by name (one lookup each, however many).
    private struct EnumCases {
        let values: Set<SQLValue>
        let byName: [String: SQLValue]
        /// The first dozen, as a message names them: `calm ('calm'), loud ('LOUD')`.
        let listed: String

        init(_ cases: [(name: String, value: SQLValue)]) {
            values = Set(cases.map(\.value))
            byName = Dictionary(cases, uniquingKeysWith: { first, _ in first })
            listed = cases.prefix(12).map { "\($0.name) (\($0.value))" }.joined(separator: ", ") + (cases.count > 12 ? ", …" : "")
        }
    }

    /// The value the attribute's type stores for `raw` (inlined: `convert` is the import's hot path).
    @inline(__always)
    private func storedValue(_ raw: UnsafeBufferPointer<UInt8>) throws(ConversionFailure) -> SQLValue {
        switch type {
        case .string, .uri:
            return .text(String(decoding: raw, as: UTF8.self))
        case .integer16:
            return .integer(try integer(trimmed(raw), in: Int64(Int16.min)...Int64(Int16.max)))
        case .integer32:
            return .integer(try integer(trimmed(raw), in: Int64(Int32.min)...Int64(Int32.max)))
        case .integer64:
            return .integer(try integer(trimmed(raw), in: Int64.min...Int64.max))
        case .double:
            return .real(try double(trimmed(raw)))
        case .decimal:
            return .real(try decimal(raw))
        case .float:
            let value = try double(trimmed(raw))
            // Rounded to the nearest Float: 3.4028235e38 is the largest one, 3.5e38 is none; a
            // value that is not zero but rounds to zero underflows, which is refused as overflow is.
            guard Float(value).isFinite else {
                throw failure(raw, "does not fit a Float")
            }
            guard Float(value) != 0 || value == 0 else {
                throw failure(raw, "is too small for a Float (it would be stored as 0)")
            }
            return .real(Double(Float(value)))
        case .boolean:
            return .integer(try boolean(trimmed(raw)))
        case .date:
            let text = trimmed(raw)
            if text.first == UInt8(ascii: "@") {
                // Exact form, as dumps write it: seconds since 2001-01-01T00:00:00Z.
                return .real(try double(UnsafeBufferPointer(rebasing: text.dropFirst())))
            }
            guard let seconds = datePattern.secondsSinceReferenceDate(trimmed(raw), defaultOffset: defaultOffset) else {
                throw failure(raw, "is not a date in the format \(datePattern)")
            }
            return .real(seconds)
        case .binary where array != nil && raw.first == UInt8(ascii: "["),
             .transformable where array != nil && raw.first == UInt8(ascii: "["):
            // A SwiftData array, given as JSON text.
            do {
                return .blob(try SwiftDataArrayText.stored(raw, as: array!))
            } catch {
                throw failure(raw, error.description)
            }
        case .binary, .transformable:
            // White space (line breaks in long values) is allowed; any other stray character is an error.
            let text = raw.filter { !Self.isSpace($0) }
            guard let data = Data(base64Encoded: Data(text)) else {
                throw failure(raw, "is not base64 data")
            }
            return .blob(marksExternalBinary ? ExternalBinary.inline([UInt8](data)) : [UInt8](data))
        case .uuid:
            guard let value = StoredUUID.value(String(decoding: trimmed(raw), as: UTF8.self)) else {
                throw failure(raw, "is not a UUID")
            }
            return value
        case .objectID, .composite, .undefined:
            throw ConversionFailure(description: "attributes of type \(type.rawValue) cannot be imported")
        }
    }

    private func failure(_ raw: UnsafeBufferPointer<UInt8>, _ what: String) -> ConversionFailure {
        var shown = String(decoding: raw.prefix(80), as: UTF8.self)
        if raw.count > 80 { shown += "…" }
        return ConversionFailure(description: "'\(shown)' \(what)")
    }

    private func trimmed(_ raw: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        var start = 0
        var end = raw.count
        while start < end, Self.isSpace(raw[start]) { start += 1 }
        while end > start, Self.isSpace(raw[end - 1]) { end -= 1 }
        return UnsafeBufferPointer(rebasing: raw[start..<end])
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    private func integer(_ bytes: UnsafeBufferPointer<UInt8>, in range: ClosedRange<Int64>) throws(ConversionFailure) -> Int64 {
        var index = 0
        var negative = false
        if index < bytes.count, bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+") {
            negative = bytes[index] == UInt8(ascii: "-")
            index += 1
        }
        guard index < bytes.count else { throw failure(bytes, "is not an \(type.rawValue)") }
        var magnitude: UInt64 = 0
        while index < bytes.count {
            let digit = bytes[index] &- 48
            guard digit < 10 else { throw failure(bytes, "is not an \(type.rawValue)") }
            let (times, overflow1) = magnitude.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times.addingReportingOverflow(UInt64(digit))
            guard !overflow1, !overflow2 else { throw failure(bytes, "does not fit \(type.rawValue) (\(range.lowerBound)...\(range.upperBound))") }
            magnitude = sum
            index += 1
        }
        let limit = negative ? UInt64(bitPattern: range.lowerBound).magnitudeOfNegative : UInt64(range.upperBound)
        guard magnitude <= limit else { throw failure(bytes, "does not fit \(type.rawValue) (\(range.lowerBound)...\(range.upperBound))") }
        return negative ? (magnitude == UInt64(1) << 63 ? Int64.min : -Int64(magnitude)) : Int64(magnitude)
    }

    /// A Decimal is stored as a number in a DECIMAL column, which SQLite keeps to a double's
    /// precision: a value with more significant digits than that would change silently, so it is
    /// refused. (Out of line: Foundation's `Decimal` stays off the other types' path.)
    @inline(never)
    private func decimal(_ raw: UnsafeBufferPointer<UInt8>) throws(ConversionFailure) -> Double {
        let text = trimmed(raw)
        let value = try double(text)
        guard let exact = Decimal(string: String(decoding: text, as: UTF8.self)), exact == Decimal(string: "\(value)") else {
            throw failure(raw, "has more significant digits than a Decimal keeps in the store (a double's 15 to 17)")
        }
        return value
    }

    private func double(_ bytes: UnsafeBufferPointer<UInt8>) throws(ConversionFailure) -> Double {
        guard !bytes.isEmpty, bytes.count < 128 else { throw failure(bytes, "is not a \(type.rawValue)") }
        // Most seed numbers: read in one pass, which checks their notation too.
        if let exact = DecimalText.exactDouble(bytes) { return exact }
        // Only plain decimal notation: strtod would also take hex floats, "inf" and "nan".
        guard bytes.allSatisfy({ ($0 >= 48 && $0 <= 57) || $0 == 46 || $0 == 43 || $0 == 45 || $0 == 101 || $0 == 69 })
        else { throw failure(bytes, "is not a \(type.rawValue)") }
        let value = withUnsafeTemporaryAllocation(of: CChar.self, capacity: bytes.count + 1) { buffer -> Double? in
            for index in 0..<bytes.count { buffer[index] = CChar(bitPattern: bytes[index]) }
            buffer[bytes.count] = 0
            var end: UnsafeMutablePointer<CChar>?
            let parsed = strtod(buffer.baseAddress!, &end)
            return end == buffer.baseAddress! + bytes.count ? parsed : nil
        }
        guard let value else { throw failure(bytes, "is not a \(type.rawValue)") }
        guard value.isFinite else { throw failure(bytes, "does not fit a \(type.rawValue)") }
        // Underflow: a literal with a digit other than 0 before its exponent that comes out as 0.
        if value == 0, bytes.prefix(while: { $0 != UInt8(ascii: "e") && $0 != UInt8(ascii: "E") }).contains(where: { $0 >= 49 && $0 <= 57 }) {
            throw failure(bytes, "is too small for a \(type.rawValue) (it would be stored as 0)")
        }
        return value
    }

    private func boolean(_ bytes: UnsafeBufferPointer<UInt8>) throws(ConversionFailure) -> Int64 {
        switch String(decoding: bytes, as: UTF8.self).lowercased() {
        case "yes", "true", "1": 1
        case "no", "false", "0": 0
        default: throw failure(bytes, "is not a Boolean (YES/NO, true/false, 1/0)")
        }
    }
}

extension UInt64 {
    /// The magnitude of a negative Int64 given as its bit pattern (Int64.min -> 2^63).
    fileprivate var magnitudeOfNegative: UInt64 { ~self &+ 1 }
}
