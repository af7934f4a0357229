import Foundation
import SeedImport
import SeedModel
import SeedStore

/// Writes dumped objects as entity XML or an XML property list, in 64 KiB pieces.
struct DumpWriter {
    typealias DumpError = StoreDumper.DumpError

    let format: StoreDumper.Format
    /// How dates are written.
    let dates: StoreDumper.DateStyle
    let output: FileHandle
    private var buffer = ""

    init(format: StoreDumper.Format, dates: StoreDumper.DateStyle = .iso8601, output: FileHandle) {
        self.format = format
        self.dates = dates
        self.output = output
        switch format {
        case .xml:
            buffer = """
                <?xml version="1.0" encoding="UTF-8"?>
                <!-- seedgen dump: build this file with the same model to get the same objects -->
                <Dump xmlns:seedgen="\(EntityXMLDelegate.sourceNamespace)">

                """
        case .plist:
            buffer = """
                <?xml version="1.0" encoding="UTF-8"?>
                <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
                <!-- seedgen dump: build this file with the same model to get the same objects -->
                <plist version="1.0">
                <dict>

                """
        }
    }

    /// Starts a property list's section of one entity's objects.
    mutating func section(_ entity: String) {
        buffer += "  <key>\(entity)</key>\n  <array>\n"
    }

    mutating func endSection() {
        buffer += "  </array>\n"
    }

    /// How an object names the objects of one relationship.
    enum Reference {
        /// The destination's natural key (a to-one).
        case key(String)
        /// Identifiers: one for a to-one, a list for a to-many.
        case identifiers([String], isList: Bool)
    }

    /// One object: its identifier (when something names it by one), its non-null attribute
    /// values, the attributes that are NULL though the model gives them a default (`seedgen:nil`,
    /// `@nil`: a rebuild keeps them NULL), and the objects it names per relationship.
    mutating func object(entity: String, identifier: String?, values: [(name: String, value: SQLValue, attribute: AttributeDescription)],
                         nils: [String], references: [(name: String, reference: Reference)]) throws(DumpError) {
        switch format {
        case .xml:
            buffer += "  <\(entity)" + (try identifier.map { (identifier) throws(DumpError) in " seedgen:id=\"\(try Self.escape(identifier))\"" } ?? "")
            if !nils.isEmpty { buffer += " seedgen:nil=\"\(nils.joined(separator: " "))\"" }
            for (name, value, attribute) in values {
                let text = try Self.escape(try Self.text(value, of: attribute, dates: dates))
                try Self.requireReadable(text, "\(entity).\(name)")
                buffer += " \(name)=\"\(text)\""
            }
            for (name, reference) in references {
                switch reference {
                case .key(let key): buffer += " \(name)=\"\(try Self.escape(key))\""
                case .identifiers(let identifiers, _):
                    let text = try Self.escape(identifiers.joined(separator: " "))
                    try Self.requireReadable(text, "\(entity).\(name)'s \(identifiers.count) identifiers")
                    buffer += " seedgen:\(name)=\"\(text)\""
                }
            }
            buffer += "/>\n"
        case .plist:
            buffer += "    <dict>" + (try identifier.map { (identifier) throws(DumpError) in "<key>@id</key><string>\(try Self.escape(identifier))</string>" } ?? "")
            if !nils.isEmpty { buffer += "<key>@nil</key><array>" + nils.map { "<string>\($0)</string>" }.joined() + "</array>" }
            for (name, value, attribute) in values {
                buffer += "<key>\(name)</key>\(try Self.plistValue(value, of: attribute, dates: dates))"
            }
            for (name, reference) in references {
                switch reference {
                case .key(let key): buffer += "<key>\(name)</key><string>\(try Self.escape(key))</string>"
                case .identifiers(let identifiers, let isList):
                    let strings = try identifiers.map { (identifier) throws(DumpError) in "<string>\(try Self.escape(identifier))</string>" }.joined()
                    buffer += "<key>@\(name)</key>" + (isList ? "<array>\(strings)</array>" : strings)
                }
            }
            buffer += "</dict>\n"
        }
        if buffer.utf8.count > 1 << 16 { flush() }
    }

    /// Closes the document and writes what is left.
    mutating func finish() {
        buffer += format == .xml ? "</Dump>\n" : "</dict>\n</plist>\n"
        flush()
    }

    private mutating func flush() {
        output.write(Data(buffer.utf8))
        buffer = ""
    }

    /// The most bytes libxml2 reads as one attribute value (`XML_MAX_TEXT_LENGTH`; seedgen never
    /// sets `XML_PARSE_HUGE`). A property list's element text has no such limit.
    static let attributeLimit = 10_000_000

    /// Refuses an entity XML attribute value a build could not read back, up front: a dump
    /// builds back or is not written.
    static func requireReadable(_ escaped: String, _ what: String) throws(DumpError) {
        guard escaped.utf8.count > attributeLimit else { return }
        throw DumpError(description: "\(what): \(escaped.utf8.count) bytes as an XML attribute, past the \(attributeLimit) bytes libxml2 reads as one; "
            + "entity XML of it could not be built back: dump with --format plist, which writes it as element text")
    }

    // MARK: - Values

    /// A value as a property-list element of the attribute's own kind (`<integer>`, `<real>`,
    /// `<true/>`, `<data>`); decimals, dates, UUIDs and URIs as exact `<string>`s.
    static func plistValue(_ value: SQLValue, of attribute: AttributeDescription, dates: StoreDumper.DateStyle) throws(DumpError) -> String {
        if attribute.declaredValue == .stringArray, case .blob(let bytes) = value, let strings = StringArrayArchive.strings(in: bytes) {
            // A [String] as the list it is: each string its own element, however many.
            return try "<array>" + strings.map { (string) throws(DumpError) in "<string>\(try escape(string))</string>" }.joined() + "</array>"
        }
        let text = try text(value, of: attribute, dates: dates)
        switch attribute.type {
        case .integer16, .integer32, .integer64: return "<integer>\(text)</integer>"
        case .double, .float: return "<real>\(text)</real>"
        case .boolean: return value.integer == 0 ? "<false/>" : "<true/>"
        case .binary where attribute.declaredValue?.isArray == true && text.first == "[",
             .transformable where attribute.declaredValue?.isArray == true && text.first == "[":
            return "<string>\(try escape(text))</string>"
        case .binary, .transformable: return "<data>\(text)</data>"
        default: return "<string>\(try escape(text))</string>"
        }
    }

    /// A stored value as text the importer converts back to the same value (the data of a
    /// Binary attribute with external storage without its marker: the importer adds it again;
    /// a date as `dates` says, where the importer reads it back exactly: `dateText`).
    static func text(_ value: SQLValue, of attribute: AttributeDescription, dates: StoreDumper.DateStyle) throws(DumpError) -> String {
        if attribute.type == .date, let text = dateText(value, of: attribute, dates: dates) { return text }
        if let form = attribute.declaredValue, form.isArray, case .blob(let bytes) = value,
           let json = SwiftDataArrayText.text(of: bytes, as: form) {
            return json  // a SwiftData array as the JSON it is built from again (else base64)
        }
        guard attribute.storesExternalBinaryMarker, case .blob(let stored) = value else {
            return try text(value, type: attribute.type)
        }
        switch ExternalBinary.decode(stored) {
        case .inline(let bytes): return Data(bytes).base64EncodedString()
        case .external(let name):
            throw DumpError(description: "\(attribute.name): the value is kept in the external file \(name), which the store does not carry")
        case .unmarked:
            throw DumpError(description: "\(attribute.name): a value without Core Data's external-storage marker (seedgen verify reports it)")
        }
    }

    /// A stored value of an attribute of `type` as text the importer converts back to the same value.
    static func text(_ value: SQLValue, type: AttributeType) throws(DumpError) -> String {
        switch (type, value) {
        case (.date, .real(let seconds)): return "@\(seconds)"
        case (.date, .integer(let seconds)): return "@\(seconds)"
        case (.binary, .blob(let bytes)), (.transformable, .blob(let bytes)): return Data(bytes).base64EncodedString()
        case (.uuid, .blob(let bytes)) where bytes.count == 16:
            return StoredUUID.string(bytes)
        case (_, .integer(let number)): return String(number)
        case (_, .real(let number)): return "\(number)"
        case (_, .text(let text)): return text
        default: throw DumpError(description: "a \(type.rawValue) value stored as \(value) cannot be written")
        }
    }

    /// XML escaping; line breaks and tabs as character references so they survive in attributes.
    static func escape(_ text: String) throws(DumpError) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "\n": result += "&#10;"
            case "\r": result += "&#13;"
            case "\t": result += "&#9;"
            case let control where control.value < 0x20 || control.value == 0xFFFE || control.value == 0xFFFF:
                throw DumpError(description: "the text \(SQLValue.text(text).excerpt) holds U+\(String(control.value, radix: 16, uppercase: true)), which XML cannot carry")
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
