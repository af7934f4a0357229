import Foundation
import SeedModel
import SeedStore

/// Writes a store's objects as entity XML that `seedgen build` reads back into the same store.
///
/// Objects come table by table in `Z_PK` order, so a rebuild gives them the same keys; values
/// are written exactly (doubles in shortest round-trip form, dates as `@` + seconds since 2001,
/// data as base64); a to-one relationship is written as its destination's natural key, from
/// the side whose destination has a single-attribute uniqueness constraint.
package struct StoreDumper {
    /// Why a store cannot be dumped.
    package struct DumpError: Error, Sendable, CustomStringConvertible {
        /// What is wrong.
        package var description: String
    }

    /// The layout the store has.
    package let layout: StoreLayout
    /// The store file.
    package let storePath: String
    /// Things that keep the dump valid but its rebuild from being byte-identical.
    package private(set) var warnings: [String] = []

    /// A dumper for the store at `storePath`, laid out as `layout`.
    package init(storePath: String, layout: StoreLayout) {
        self.storePath = storePath
        self.layout = layout
    }

    private var model: DataModel { layout.model }

    /// The single-attribute natural key of an entity (own or inherited), if it has one.
    private func singleKey(of entity: EntityDescription) -> String? {
        model.singleAttributeKey(of: entity)?.name
    }

    /// The to-one relationships written as keys, per entity; fails for relationships a dump cannot express.
    private func writtenRelationships(of entity: EntityDescription) throws(DumpError) -> [RelationshipDescription] {
        var written: [RelationshipDescription] = []
        for relationship in model.allRelationships(of: entity) where !relationship.isTransient {
            let destination = model.entity(named: relationship.destinationEntity)!
            let inverse = model.inverse(of: relationship)
            if relationship.isToMany {
                if inverse?.isToMany == true {
                    throw DumpError(description: "\(entity.name).\(relationship.name) is many-to-many; dumps cannot write many-to-many relationships yet")
                }
                if singleKey(of: entity) == nil {
                    throw DumpError(description: "\(entity.name).\(relationship.name): \(entity.name) has no single-attribute uniqueness constraint, so its \(destination.name) objects cannot name it")
                }
                continue  // written from the to-one side
            }
            if singleKey(of: destination) != nil {
                written.append(relationship)
            } else if inverse == nil || inverse!.isToMany || singleKey(of: entity) == nil {
                throw DumpError(description: "\(entity.name).\(relationship.name): \(destination.name) has no single-attribute uniqueness constraint to be named by")
            }
        }
        return written
    }

    /// Writes the dump to `output`.
    package mutating func dump(to output: FileHandle) throws {
        let reader = try StoreReader(path: storePath)
        var buffer = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!-- seedgen dump: build this file with the same model to get the same store -->\n<Dump>\n"
        func flush(force: Bool = false) {
            if force || buffer.utf8.count > 1 << 16 {
                output.write(Data(buffer.utf8))
                buffer = ""
            }
        }
        // Natural keys of every keyed destination row, by table and Z_PK.
        var keys: [String: [Int64: String]] = [:]
        for entity in model.entities where singleKey(of: entity) != nil {
            let table = layout.entity(named: entity.name)!.table
            guard keys[table] == nil, let column = layout.column(for: singleKey(of: entity)!, of: entity.name) else { continue }
            var map: [Int64: String] = [:]
            try reader.forEachValue(of: column, in: table) { pk, value in
                map[pk] = try Self.text(value, type: model.allAttributes(of: entity).first { $0.name == singleKey(of: entity)! }!.type)
            }
            keys[table] = map
        }
        // Per entity: which row positions hold its attributes and written relationships.
        struct EntityColumns {
            var attributes: [(name: String, index: Int, attribute: AttributeDescription)] = []
            var relationships: [(name: String, index: Int, destinationTable: String)] = []
        }
        var columnsByNumber: [Int: EntityColumns] = [:]
        for entity in model.entities where !entity.isAbstract {
            let table = layout.table(named: layout.entity(named: entity.name)!.table)!
            func index(_ property: String) -> Int { 3 + table.columns.firstIndex { $0.name == layout.column(for: property, of: entity.name) }! }
            var columns = EntityColumns()
            for attribute in model.allAttributes(of: entity) where !attribute.isTransient {
                columns.attributes.append((attribute.name, index(attribute.name), attribute))
            }
            for relationship in try writtenRelationships(of: entity) {
                columns.relationships.append((relationship.name, index(relationship.name), layout.entity(named: relationship.destinationEntity)!.table))
            }
            columnsByNumber[layout.entity(named: entity.name)!.number] = columns
        }
        for table in layout.tables {
            var expected: Int64 = 1
            try reader.forEachObjectRow(in: table.name) { row in
                let pk = row[0].integer ?? 0
                if pk != expected {
                    warnings.append("\(table.name): Z_PK \(pk) follows \(expected - 1); a rebuild numbers rows without gaps")
                }
                expected = pk + 1
                guard let number = row[1].integer.map(Int.init), let columns = columnsByNumber[number] else {
                    throw DumpError(description: "\(table.name) row \(pk) has Z_ENT \(row[1]), not a concrete entity of the model")
                }
                buffer += "  <\(layout.entity(number: number)!.name)"
                for attribute in columns.attributes where row[attribute.index] != .null {
                    buffer += " \(attribute.name)=\"\(try Self.escape(try Self.text(row[attribute.index], of: attribute.attribute)))\""
                }
                for relationship in columns.relationships {
                    guard let target = row[relationship.index].integer else { continue }
                    guard let key = keys[relationship.destinationTable]?[target] else {
                        throw DumpError(description: "\(table.name) row \(pk): \(relationship.name) points at \(relationship.destinationTable) row \(target), which has no key")
                    }
                    buffer += " \(relationship.name)=\"\(try Self.escape(key))\""
                }
                buffer += "/>\n"
                flush()
            }
        }
        buffer += "</Dump>\n"
        flush(force: true)
    }

    /// A stored value as text the importer converts back to the same value (the data of a
    /// Binary attribute with external storage without its marker: the importer adds it again).
    static func text(_ value: SQLValue, of attribute: AttributeDescription) throws(DumpError) -> String {
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

    /// XML attribute escaping; line breaks and tabs as character references so they survive.
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
                throw DumpError(description: "the text '\(text.prefix(40))' holds U+\(String(control.value, radix: 16, uppercase: true)), which XML cannot carry")
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
