import Foundation

/// The five source formats, each written by hand here (no code of the importer's), spelling
/// every value the way the README says the format gives it.
enum SampleFormat: String, CaseIterable, Sendable {
    case entityXML, xmlPlist, binaryPlist, json, csv
    /// One entity's objects: a root JSON array (the file's name names the entity), JSON Lines, TSV.
    case jsonArray, jsonLines, tsv

    var fileName: String {
        switch self {
        case .entityXML: "Samples.xml"
        case .xmlPlist: "Samples.plist"
        case .binaryPlist: "Samples-binary.plist"
        case .json: "Samples.json"
        case .csv: "Samples.csv"
        case .jsonArray: "Sample.json"
        case .jsonLines: "Samples.jsonl"
        case .tsv: "Samples.tsv"
        }
    }

    /// Whether the plist and JSON formats write the section as a dictionary keyed by `name`
    /// (else an array of objects): one way or the other, decided by the case itself.
    static func keyed(_ samples: [some Any]) -> Bool { samples.count % 2 == 0 }

    /// Whether the format is XML, which cannot carry NUL, most C0 controls, U+FFFE or U+FFFF.
    var isXML: Bool { self == .entityXML || self == .xmlPlist }

    func write(_ samples: [Sample]) -> [UInt8] {
        switch self {
        case .entityXML: Array(Self.entityXML(samples).utf8)
        case .xmlPlist: Array(Self.xmlPlist(samples).utf8)
        case .binaryPlist: Self.binaryPlist(samples)
        case .json: Self.json(samples)
        case .csv: Self.csv(samples, delimiter: 0x2C)
        case .jsonArray: Array(("[" + samples.map { Self.jsonObject($0, keyed: false) }.joined(separator: ",\n") + "]\n").utf8)
        case .jsonLines: Array(samples.map { Self.jsonObject($0, keyed: false) + "\n" }.joined().utf8)
        case .tsv: Self.csv(samples, delimiter: 0x09)
        }
    }

    // MARK: - XML

    /// XML text: the five special characters escaped, everything else not printable as a
    /// character reference (which libxml2 must refuse where XML forbids the character).
    static func xmlEscaped(_ text: Sample.Text, attribute: Bool) -> String {
        var result = ""
        for unit in text.units {
            switch unit {
            case .loneSurrogate(let value): result += "&#x\(String(value, radix: 16));"
            case .scalar(let scalar):
                switch scalar {
                case "&": result += "&amp;"
                case "<": result += "&lt;"
                case ">": result += "&gt;"
                case "\"" where attribute: result += "&quot;"
                case "\n" where !attribute: result += "\n"
                case _ where scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF: result += "&#\(scalar.value);"
                default: result.unicodeScalars.append(scalar)
                }
            }
        }
        return result
    }

    static func entityXML(_ samples: [Sample]) -> String {
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<Samples xmlns:seedgen=\"urn:seedgen:source\">\n"
        for sample in samples {
            xml += "  <Sample seedgen:id=\"\(sample.id)\""
            for (name, value) in sample.orderedValues {
                xml += " \(name)=\"\(xmlEscaped(value.sourceText, attribute: true))\""
            }
            if let parent = sample.parent { xml += " parent=\"\(xmlEscaped(parent, attribute: true))\"" }
            for (name, list) in sample.lists { xml += " seedgen:\(name)=\"\(list.joined(separator: " "))\"" }
            xml += "/>\n"
        }
        return xml + "</Samples>\n"
    }

    static func xmlPlist(_ samples: [Sample]) -> String {
        let keyed = keyed(samples)
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\"><dict><key>Samples</key>\(keyed ? "<dict>" : "<array>")\n"
        for sample in samples {
            if keyed { xml += "<key>\(xmlEscaped(sample.name, attribute: false))</key>" }
            xml += "<dict>"
            for (name, value) in sample.orderedValues where !(keyed && name == "name") {
                xml += "<key>\(name)</key>"
                switch value {
                case .number(let literal) where name.hasPrefix("i"): xml += "<integer>\(literal)</integer>"
                case .number(let literal): xml += "<real>\(literal)</real>"
                case .boolean(let flag): xml += flag ? "<true/>" : "<false/>"
                case .data(let bytes): xml += "<data>\(Data(bytes).base64EncodedString())</data>"
                case .date(let seconds) where seconds == seconds.rounded() && abs(seconds) < 3e9:
                    let formatter = ISO8601DateFormatter()
                    xml += "<date>\(formatter.string(from: Date(timeIntervalSinceReferenceDate: seconds)))</date>"
                default: xml += "<string>\(xmlEscaped(value.sourceText, attribute: false))</string>"
                }
            }
            if let parent = sample.parent { xml += "<key>parent</key><string>\(xmlEscaped(parent, attribute: false))</string>" }
            xml += "<key>@id</key><string>\(sample.id)</string>"
            for (name, list) in sample.lists { xml += "<key>@\(name)</key><array>" + list.map { "<string>\($0)</string>" }.joined() + "</array>" }
            xml += "</dict>\n"
        }
        return xml + (keyed ? "</dict>" : "</array>") + "</dict></plist>\n"
    }

    // MARK: - JSON and CSV

    static func jsonString(_ text: Sample.Text) -> String {
        var result = "\""
        for unit in text.units {
            switch unit {
            case .loneSurrogate(let value): result += "\\u\(String(value, radix: 16))"
            case .scalar(let scalar):
                switch scalar {
                case "\"": result += "\\\""
                case "\\": result += "\\\\"
                case _ where scalar.value < 0x20: result += String(format: "\\u%04x", scalar.value)
                default: result.unicodeScalars.append(scalar)
                }
            }
        }
        return result + "\""
    }

    static func json(_ samples: [Sample]) -> [UInt8] {
        let keyed = keyed(samples)
        var json = "{\"Samples\": \(keyed ? "{" : "[")\n"
        json += samples.map { "  \(keyed ? jsonString($0.name) + ": " : "")" + jsonObject($0, keyed: keyed) }.joined(separator: ",\n")
        return Array((json + (keyed ? "\n}}\n" : "\n]}\n")).utf8)
    }

    /// One sample as a JSON object on one line (without its name when a keyed section names it).
    static func jsonObject(_ sample: Sample, keyed: Bool) -> String {
        var members = sample.orderedValues.filter { !(keyed && $0.name == "name") }.map { name, value -> String in
            let spelled: String
            switch value {
            case .number(let literal): spelled = literal
            case .boolean(let flag): spelled = flag ? "true" : "false"
            default: spelled = jsonString(value.sourceText)
            }
            return "\(jsonString(Sample.Text(name))): \(spelled)"
        }
        if let parent = sample.parent { members.append("\"parent\": \(jsonString(parent))") }
        members.append("\"@id\": \"\(sample.id)\"")
        for (name, list) in sample.lists { members.append("\"@\(name)\": [" + list.map { "\"\($0)\"" }.joined(separator: ", ") + "]") }
        return "{" + members.joined(separator: ", ") + "}"
    }

    /// UTF-8, a lone surrogate as the three bytes CESU-8 would give it (not UTF-8: refused).
    static func utf8(_ text: Sample.Text) -> [UInt8] {
        text.units.flatMap { unit -> [UInt8] in
            switch unit {
            case .scalar(let scalar): Array(String(scalar).utf8)
            case .loneSurrogate(let value): [0xE0 | UInt8(value >> 12), 0x80 | UInt8((value >> 6) & 0x3F), 0x80 | UInt8(value & 0x3F)]
            }
        }
    }

    /// CSV (or TSV, by `delimiter`), every field quoted, so any text survives either.
    static func csv(_ samples: [Sample], delimiter: UInt8) -> [UInt8] {
        let columns = Sample.attributes.map(\.name) + ["parent", "@id", "@friends", "@members"]
        var bytes = Array(columns.map { Array($0.utf8) }.joined(separator: [delimiter])) + [0x0A]
        for sample in samples {
            let fields = columns.map { column -> [UInt8] in
                let lists = Dictionary(uniqueKeysWithValues: sample.lists.map { ("@\($0.name)", Sample.Text($0.list.joined(separator: " "))) })
                let text = column == "parent" ? sample.parent : column == "name" ? sample.name : column == "@id" ? Sample.Text(sample.id)
                    : column.hasPrefix("@") ? lists[column] : sample.values[column]?.sourceText
                guard let text else { return [] }  // an empty field is nil
                return [0x22] + utf8(text).flatMap { $0 == 0x22 ? [0x22, 0x22] : [$0] } + [0x22]
            }
            bytes += Array(fields.joined(separator: [delimiter])) + [0x0D, 0x0A]
        }
        return bytes
    }
}
