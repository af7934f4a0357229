import Foundation
import SeedStore

/// The objects the round-trip properties generate: one entity with an attribute of every type
/// and every kind of relationship to itself — a to-one (its inverse a to-many), a many-to-many
/// and an ordered to-many (its inverse a to-one) — keyed by a unique `name`; to-manys name their
/// objects by identifier (`s0`, `s1`, …), the way every format can.
struct Sample: Sendable, CustomStringConvertible {
    /// A text value as given: Unicode scalars and, where a test wants them, lone UTF-16
    /// surrogates (which only JSON escapes and binary plists can spell).
    struct Text: Sendable, Equatable, CustomStringConvertible {
        enum Unit: Sendable, Equatable {
            case scalar(Unicode.Scalar)
            case loneSurrogate(UInt16)
        }
        var units: [Unit]

        init(_ units: [Unit]) { self.units = units }
        init(_ string: String) { units = string.unicodeScalars.map { .scalar($0) } }

        /// The text when it holds no lone surrogate.
        var string: String? {
            var result = ""
            for unit in units {
                guard case .scalar(let scalar) = unit else { return nil }
                result.unicodeScalars.append(scalar)
            }
            return result
        }

        /// UTF-16 code units, lone surrogates as they are.
        var utf16: [UInt16] {
            units.flatMap { unit -> [UInt16] in
                switch unit {
                case .scalar(let scalar): Array(String(scalar).utf16)
                case .loneSurrogate(let unit): [unit]
                }
            }
        }

        /// Holds a character XML 1.0 cannot carry, even as a character reference.
        var outsideXML: Bool {
            units.contains { unit in
                guard case .scalar(let scalar) = unit else { return false }
                return (scalar.value < 0x20 && ![0x09, 0x0A, 0x0D].contains(scalar.value)) || scalar.value == 0xFFFE || scalar.value == 0xFFFF
            }
        }

        var holdsLoneSurrogate: Bool { string == nil }

        var description: String {
            guard let string else { return "<\(utf16.map { String($0, radix: 16) }.joined(separator: " "))>" }
            let shown = string.unicodeScalars.prefix(60).map { $0.isASCII && $0.value >= 0x20 ? String($0) : "\\u{\(String($0.value, radix: 16))}" }.joined()
            return "\"\(shown)\"\(string.unicodeScalars.count > 60 ? "…(\(string.unicodeScalars.count))" : "")"
        }
    }

    /// An attribute's value as given in a source, and what the store must then hold.
    enum Given: Sendable, CustomStringConvertible {
        /// A String attribute's text.
        case text(Text)
        /// A number written as this literal (integers, reals, decimals).
        case number(String)
        case boolean(Bool)
        case data([UInt8])
        /// Seconds since 2001-01-01 (a Date).
        case date(Double)
        case uuid([UInt8])

        var description: String {
            switch self {
            case .text(let text): text.description
            case .number(let literal): literal
            case .boolean(let value): String(value)
            case .data(let bytes): "data(\(bytes.count))"
            case .date(let seconds): "@\(seconds)"
            case .uuid(let bytes): StoredUUID.string(bytes)
            }
        }

        /// The value as text a String-typed source spells it in (entity XML, CSV, plist `<string>`).
        var sourceText: Text {
            switch self {
            case .text(let text): text
            case .number(let literal): Text(literal)
            case .boolean(let value): Text(value ? "true" : "false")
            case .data(let bytes): Text(Data(bytes).base64EncodedString())
            case .date(let seconds): Text("@\(seconds)")
            case .uuid(let bytes): Text(StoredUUID.string(bytes))
            }
        }
    }

    /// The attributes, in the model's order; `name` is the key.
    static let attributes: [(name: String, type: String)] = [
        ("name", "String"), ("text", "String"), ("i16", "Integer 16"), ("i32", "Integer 32"), ("i64", "Integer 64"),
        ("dbl", "Double"), ("flt", "Float"), ("dec", "Decimal"), ("flag", "Boolean"), ("when", "Date"),
        ("blob", "Binary"), ("ext", "Binary"), ("uid", "UUID"),
    ]

    static let model = """
        <?xml version="1.0"?>
        <model>
            <entity name="Sample">
        \(attributes.map { attribute in
            "        <attribute name=\"\(attribute.name)\" optional=\"\(attribute.name == "name" ? "NO" : "YES")\" attributeType=\"\(attribute.type)\""
                + (attribute.name == "ext" ? " allowsExternalBinaryDataStorage=\"YES\"" : "") + "/>"
        }.joined(separator: "\n"))
                <relationship name="parent" optional="YES" maxCount="1" destinationEntity="Sample" inverseName="children" inverseEntity="Sample"/>
                <relationship name="children" optional="YES" toMany="YES" destinationEntity="Sample" inverseName="parent" inverseEntity="Sample"/>
                <relationship name="friends" optional="YES" toMany="YES" destinationEntity="Sample" inverseName="friendOf" inverseEntity="Sample"/>
                <relationship name="friendOf" optional="YES" toMany="YES" destinationEntity="Sample" inverseName="friends" inverseEntity="Sample"/>
                <relationship name="members" optional="YES" toMany="YES" ordered="YES" destinationEntity="Sample" inverseName="memberOf" inverseEntity="Sample"/>
                <relationship name="memberOf" optional="YES" maxCount="1" destinationEntity="Sample" inverseName="members" inverseEntity="Sample"/>
                <uniquenessConstraints><uniquenessConstraint><constraint value="name"/></uniquenessConstraint></uniquenessConstraints>
            </entity>
        </model>
        """

    /// The key.
    var name: Text
    /// Values by attribute name (absent: not given).
    var values: [String: Given]
    /// The key of the object `parent` names.
    var parent: Text?
    /// The object's identifier.
    var id: String
    /// Many-to-many: the identifiers of the objects it names (its inverse, `friendOf`, follows).
    var friends: [String] = []
    /// Ordered to-many: the identifiers of its members, in order (each object in one list at most).
    var members: [String] = []

    /// The to-manys it names objects in, by identifier (those that name any).
    var lists: [(name: String, list: [String])] {
        [("friends", friends), ("members", members)].filter { !$0.list.isEmpty }
    }

    /// The values in the model's attribute order, the key first.
    var orderedValues: [(name: String, value: Given)] {
        [("name", .text(name))] + Self.attributes.dropFirst().compactMap { attribute in values[attribute.name].map { (attribute.name, $0) } }
    }

    var description: String {
        "Sample(\(id), \(orderedValues.map { "\($0.name): \($0.value)" }.joined(separator: ", "))\(parent.map { ", parent: \($0)" } ?? "")"
            + (friends.isEmpty ? "" : ", friends: \(friends)") + (members.isEmpty ? "" : ", members: \(members)") + ")"
    }
}
