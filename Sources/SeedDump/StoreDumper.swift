import Foundation
import SeedImport
import SeedModel
import SeedStore

/// Writes a store's objects as source data that `seedgen build` reads back into the same
/// objects, values, relationships and order: entity XML or an XML property list.
///
/// A to-one names its destination by the natural key the model gives it when the destination
/// comes earlier in the dump; everything else by a source-local identifier: the one its build
/// gave it when the seed record keeps it, else `#Entity-k` for the k-th object of its entity in
/// `Z_PK` order, so any model can be dumped, keyed or not. Objects
/// come table by table in `Z_PK` order (XML) or entity by entity (plist), the destinations of
/// keyed to-ones first where the model allows, so a rebuild numbers them in the same order (a
/// key named before its object would take the next `Z_PK` at first sight); values are written exactly (doubles
/// in shortest round-trip form, dates as ISO 8601 that reads back to the same seconds or as
/// `@` + seconds since 2001, data as base64). Each
/// relationship is written from one side: a to-one from the side holding the key (one side of a
/// one-to-one), an ordered to-many as its owner's list in order, a many-to-many from its
/// ordered side (else the side its join table is named after).
package struct StoreDumper {
    /// Why a store cannot be dumped.
    package struct DumpError: Error, Sendable, CustomStringConvertible {
        /// What is wrong.
        package var description: String
    }

    /// What a dump is written as.
    package enum Format: String, Sendable, CaseIterable {
        /// Entity XML, objects in table order.
        case xml
        /// An XML property list, one section per entity.
        case plist
    }

    /// How a dump writes dates.
    package enum DateStyle: String, Sendable, CaseIterable {
        /// ISO 8601 in UTC (`2024-05-01T09:30:00.25Z`), with the fraction digits that give the
        /// stored seconds back exactly; `@` + seconds where no such text does, or where the
        /// attribute's own `dateFormat` would read it.
        case iso8601
        /// `@` + seconds since 2001-01-01T00:00:00Z, exactly as stored.
        case seconds
    }

    /// How dates are written (default ISO 8601).
    package var dates = DateStyle.iso8601

    /// The layout the store's model has (the store's own era is read from the store).
    package let layout: StoreLayout
    /// The store file.
    package let storePath: String
    /// Things that keep the dump valid but its rebuild from being byte-identical.
    package private(set) var warnings: [String] = []

    /// A dumper for the store at `storePath`, of the model `layout` lays out.
    package init(storePath: String, layout: StoreLayout) {
        self.storePath = storePath
        self.layout = layout
    }

    /// What one concrete entity's objects carry: their attributes, and the relationships
    /// written from their side with the identifiers each object names.
    struct ObjectShape {
        /// Each attribute's column, and whether the model gives it a default that a rebuild
        /// would fill where the row holds NULL (the dump then says nil).
        var attributes: [(column: Int, attribute: AttributeDescription, hasDefault: Bool)] = []
        /// To-ones by the row's own key column (index into the selected columns).
        var toOnes: [(name: String, column: Int, destinationTable: String)] = []
        /// Lists by owner `Z_PK`, in order, and the table of their members.
        var lists: [(name: String, members: [Int64: [String]], memberTable: String)] = []
    }

    /// Writes the dump to `output`.
    package mutating func dump(to output: FileHandle, format: Format = .xml) throws {
        let reader = try StoreReader(path: storePath)
        let layout = try reader.storedLayout(of: self.layout)
        try reader.requireReadableValues(of: layout)
        let names = try names(reader, layout)
        var shapes: [Int: ObjectShape] = [:]
        for entity in layout.model.entities where !entity.isAbstract {
            shapes[layout.entity(named: entity.name)!.number] = try shape(of: entity, reader, layout, names)
        }
        // Objects named by identifier somewhere: members of a list, objects without a key, and
        // destinations written after an object that names them.
        let listed = Set(shapes.values.flatMap { $0.lists.map(\.memberTable) })
        var namedAhead = Set<ObjectRows.Row>()
        let units = Self.order(format == .xml ? layout.tables.map(\.name) : layout.model.entities.map(\.name).sorted(),
                               after: dependencies(shapes, layout, byTable: format == .xml))
        let position = Dictionary(uniqueKeysWithValues: units.enumerated().map { ($1, $0) })
        var writer = DumpWriter(format: format, dates: dates, output: output)
        func write(_ row: [SQLValue], table: String, shape: ObjectShape, entity: String) throws {
            let pk = row[0].integer ?? 0
            var values: [(String, SQLValue, AttributeDescription)] = []
            var nils: [String] = []
            for (column, attribute, hasDefault) in shape.attributes {
                guard row[column] != .null else {
                    if hasDefault { nils.append(attribute.name) }
                    continue
                }
                guard let value = externalDataInlined(row[column], of: attribute, in: "\(table) row \(pk)") else { continue }
                values.append((attribute.name, value, attribute))
            }
            var references: [(String, DumpWriter.Reference)] = []
            for toOne in shape.toOnes {
                guard let target = row[toOne.column].integer else { continue }
                guard let name = names[toOne.destinationTable]?[target] else {
                    throw DumpError(description: "\(table) row \(pk): \(toOne.name) points at \(toOne.destinationTable) row \(target), which does not exist")
                }
                let (here, there) = format == .xml ? (table, toOne.destinationTable) : (entity, name.entity)
                if let key = name.key, (position[there]!, target) < (position[here]!, pk) {
                    references.append((toOne.name, .key(key)))
                } else {
                    references.append((toOne.name, .identifiers([name.identifier], isList: false)))
                    namedAhead.insert(ObjectRows.Row(primaryKey: target, entityNumber: layout.entity(named: name.entity)!.number))
                }
            }
            for list in shape.lists {
                if let members = list.members[pk] { references.append((list.name, .identifiers(members, isList: true))) }
            }
            let name = names[table]![pk]!
            let named = name.key == nil || listed.contains(table) || namedAhead.contains(ObjectRows.Row(primaryKey: pk, entityNumber: layout.entity(named: entity)!.number))
            try writer.object(entity: entity, identifier: named ? name.identifier : nil, values: values, nils: nils, references: references)
        }
        switch format {
        case .xml:
            for table in units {
                try forEachRow(of: table, shapes: shapes, layout: layout, reader) { row, number in
                    try write(row, table: table, shape: shapes[number]!, entity: layout.entity(number: number)!.name)
                }
            }
        case .plist:
            for entity in units {
                guard let number = layout.entity(named: entity).map(\.number), let shape = shapes[number] else { continue }
                let table = layout.entity(number: number)!.table
                var opened = false
                try forEachRow(of: table, shapes: shapes, layout: layout, reader) { row, rowNumber in
                    guard rowNumber == number else { return }
                    if !opened { writer.section(entity); opened = true }
                    try write(row, table: table, shape: shape, entity: entity)
                }
                if opened { writer.endSection() }
            }
        }
        writer.finish()
    }

    /// Every row of `table` (`Z_PK`, `Z_ENT`, then the layout's columns of the table), with its
    /// entity number.
    private func forEachRow(of table: String, shapes: [Int: ObjectShape], layout: StoreLayout, _ reader: StoreReader,
                            _ body: ([SQLValue], Int) throws -> Void) throws {
        try reader.forEachObjectRow(in: table, columns: layout.table(named: table)!.columns.map(\.name)) { row in
            let number = Int(row[1].integer ?? 0)
            guard shapes[number] != nil else {
                throw DumpError(description: "\(table) row \(row[0]) has Z_ENT \(row[1]), not a concrete entity of the model")
            }
            try body(row, number)
        }
    }

    /// A Binary value Core Data kept in an external file: the file's bytes, read from the
    /// store's `_EXTERNAL_DATA` folder and given inline (a seed is one file); nil, with a
    /// warning, when the file is not beside the store. Other values as they are.
    private mutating func externalDataInlined(_ value: SQLValue, of attribute: AttributeDescription, in row: String) -> SQLValue? {
        guard attribute.storesExternalBinaryMarker, case .blob(let stored) = value, case .external(let name) = ExternalBinary.decode(stored) else {
            return value
        }
        let store = URL(fileURLWithPath: storePath)
        let file = store.deletingLastPathComponent()
            .appendingPathComponent(".\(store.deletingPathExtension().lastPathComponent)_SUPPORT/_EXTERNAL_DATA/\(name)")
        guard let bytes = FileManager.default.contents(atPath: file.path) else {
            warnings.append("\(row): \(attribute.name) is kept in the external file \(file.path), which is not there; left out")
            return nil
        }
        return .blob(ExternalBinary.inline([UInt8](bytes)))
    }

    /// How a dump names one object: its identifier, and its natural key's text when its entity
    /// has a key in the model and the object gives all of its values.
    struct ObjectName {
        var entity: String
        var identifier: String
        var key: String?
    }

    /// Every row's name, by table and `Z_PK`: the identifier its build gave it when the seed
    /// record keeps one, else `#Entity-k` for the k-th object of its entity in `Z_PK` order (an
    /// identifier that starts with `#` links objects in one build and is never recorded, so the
    /// rebuild names its objects as the store did); and its key. Warns of `Z_PK` gaps (a
    /// rebuild has none).
    private mutating func names(_ reader: StoreReader, _ layout: StoreLayout) throws -> [String: [Int64: ObjectName]] {
        var names: [String: [Int64: ObjectName]] = [:]
        let recorded = try reader.recordedIdentifiers(layout: layout)
        for table in layout.tables {
            // Per entity in the table: its key and the row positions of the key's values.
            var keys: [Int: (key: NaturalKey, columns: [(Int, AttributeDescription)])] = [:]
            for entity in layout.entities where entity.table == table.name && !entity.isAbstract {
                let description = layout.model.entity(named: entity.name)!
                guard let key = NaturalKey.of(description, in: layout.model, buildKeys: [:]) else { continue }
                let attributes = layout.model.storedAttributes(of: description)
                let columns = key.names.compactMap { name -> (Int, AttributeDescription)? in
                    guard let column = layout.column(for: name, of: entity.name),
                          let position = table.columns.firstIndex(where: { $0.name == column }),
                          let attribute = attributes.first(where: { $0.name == name }) else { return nil }
                    return (2 + position, attribute)
                }
                if columns.count == key.names.count { keys[entity.number] = (key, columns) }
            }
            var counts: [Int: Int] = [:]
            var tableNames: [Int64: ObjectName] = [:]
            var expected: Int64 = 1
            try reader.forEachObjectRow(in: table.name, columns: table.columns.map(\.name)) { row in
                // Positive integers below Int64.max (requireReadableValues checked the first).
                guard let pk = row[0].integer, pk > 0, pk < Int64.max else {
                    throw DumpError(description: "\(table.name) has a row with Z_PK \(row[0]); Core Data numbers rows 1, 2, …")
                }
                if pk != expected {
                    warnings.append("\(table.name): Z_PK \(pk) follows \(expected - 1); a rebuild numbers rows without gaps")
                }
                expected = pk + 1
                let number = Int(row[1].integer ?? 0)
                guard let entity = layout.entity(number: number) else {
                    throw DumpError(description: "\(table.name) row \(pk) has Z_ENT \(row[1]), not an entity of the model")
                }
                counts[number, default: 0] += 1
                var name = ObjectName(entity: entity.name, identifier: recorded[number]?[pk] ?? "#\(entity.name)-\(counts[number]!)")
                if let (key, columns) = keys[number], columns.allSatisfy({ row[$0.0] != .null }) {
                    name.key = key.text(of: try columns.map { (column, attribute) throws(DumpError) in try DumpWriter.text(row[column], of: attribute, dates: dates) })
                }
                tableNames[pk] = name
            }
            names[table.name] = tableNames
        }
        return names
    }
}
