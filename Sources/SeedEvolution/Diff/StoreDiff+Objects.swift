import SeedModel
import SeedStore

extension StoreDiff {
    /// What is read of one entity's objects, after the key: its attributes, then per to-one the
    /// destination's entity and key and the raw `Z_PK`, then per ordered to-one its position.
    struct EntityColumns {
        var attributes: [AttributeDescription] = []
        var toOnes: [String] = []
        var positions: [String] = []
    }

    /// The objects of the concrete `entity` in both stores, merged in key order.
    func compare(_ entity: String, _ old: Side, _ new: Side, _ names: ObjectNames,
                 links: inout [String: [String: [ObjectDifference.PropertyChange]]],
                 _ report: (ObjectDifference) throws -> Void) throws -> Counts {
        var columns = EntityColumns()
        let statements = try [old, new].map { side in
            do {
                let (sql, read) = try query(for: entity, in: side, names)
                columns = read
                let statement = try side.database.prepare(sql)
                try statement.bind([.text(entity)])
                return statement
            } catch {
                throw Failure(description: "\(side.path): cannot read \(entity): \(error)")
            }
        }
        let (a, b) = (statements[0], statements[1])
        var counts = Counts()
        var entityLinks = links.removeValue(forKey: entity) ?? [:]
        var hasA = try a.step(), hasB = try b.step()
        while hasA || hasB {
            let keyA = hasA ? a.value(at: 0).text ?? "" : ""
            let keyB = hasB ? b.value(at: 0).text ?? "" : ""
            let order = !hasB ? -1 : !hasA ? 1 : Self.compare(keyA, keyB)
            let key = order <= 0 ? keyA : keyB
            if order == 0, entityLinks[key] == nil, !Self.rowsDiffer(a, b, columns) {
                counts.same += 1
                hasA = try a.step()
                hasB = try b.step()
                continue
            }
            let object = names.object(entity: entity, key: key)
            var properties: [ObjectDifference.PropertyChange] = []
            if order == 0 {
                let oldValues = values(a, columns, names), newValues = values(b, columns, names)
                for ((name, was), (_, now)) in zip(oldValues, newValues) where !Self.same(was, now) {
                    properties.append(.init(name: name, old: was, new: now))
                }
            } else {
                for (name, value) in values(order < 0 ? a : b, columns, names) where !Self.isEmpty(value) {
                    let none = Self.none(like: value)
                    properties.append(order < 0 ? .init(name: name, old: value, new: none) : .init(name: name, old: none, new: value))
                }
            }
            properties += entityLinks.removeValue(forKey: key) ?? []
            switch order {
            case ..<0:
                counts.removed += 1
                try report(ObjectDifference(kind: .removed, object: object, properties: properties))
                hasA = try a.step()
            case 1...:
                counts.added += 1
                try report(ObjectDifference(kind: .added, object: object, properties: properties))
                hasB = try b.step()
            default:
                if properties.isEmpty {
                    counts.same += 1
                } else {
                    counts.changed += 1
                    try report(ObjectDifference(kind: .changed, object: object, properties: properties))
                }
                hasA = try a.step()
                hasB = try b.step()
            }
        }
        return counts
    }

    /// The SQL that reads `entity`'s objects of one store in key order, and what its columns are.
    private func query(for entity: String, in side: Side, _ names: ObjectNames) throws(SQLiteError) -> (String, EntityColumns) {
        let layout = side.layout
        let description = layout.model.entity(named: entity)!
        let table = layout.entity(named: entity)!.table
        var columns = EntityColumns()
        var selected = ["n.key"]
        var joins: [String] = []
        for (attribute, name) in names.naming(of: entity)!.contentAttributes {
            let column = "t." + Database.quote(name)
            // Text as its bytes: compared byte for byte, never through a repaired String.
            selected.append(attribute.type == .string || attribute.type == .uri ? "CAST(\(column) AS BLOB)" : column)
            columns.attributes.append(attribute)
        }
        for relationship in layout.model.allRelationships(of: description) where !relationship.isToMany && !relationship.isTransient {
            guard let toOne = layout.toOneColumns(for: relationship.name, of: entity),
                  let destination = layout.entity(named: relationship.destinationEntity) else { continue }
            let alias = "d\(columns.toOnes.count)"
            let key = "t." + Database.quote(toOne.key)
            selected += ["\(alias).entity", "\(alias).key", key]
            joins.append("LEFT JOIN temp.seedgen_names \(alias) ON \(alias).tbl = \(names.tableNumbers[destination.table]!) AND \(alias).pk = \(key)")
            columns.toOnes.append(relationship.name)
            if let order = toOne.order {
                // Positions 1, 2, … within each destination's list: the stored numbers may differ
                // between two stores that hold the same order.
                let positions = "seedgen_positions_\(columns.positions.count)"
                try side.database.execute("""
                    DROP TABLE IF EXISTS temp.\(positions);
                    CREATE TEMP TABLE \(positions) (pk INTEGER PRIMARY KEY, position INTEGER);
                    INSERT INTO temp.\(positions) SELECT Z_PK, ROW_NUMBER() OVER (PARTITION BY \(Database.quote(toOne.key)) ORDER BY \(Database.quote(order)), Z_PK)
                      FROM \(Database.quote(table)) WHERE \(Database.quote(toOne.key)) IS NOT NULL AND Z_ENT = \(layout.entity(named: entity)!.number)
                    """)
                selected.append("p\(columns.positions.count).position")
                joins.append("LEFT JOIN temp.\(positions) p\(columns.positions.count) ON p\(columns.positions.count).pk = t.Z_PK")
                columns.positions.append(relationship.name)
            }
        }
        let sql = """
            SELECT \(selected.joined(separator: ", ")) FROM temp.seedgen_names n
            JOIN \(Database.quote(table)) t ON t.Z_PK = n.pk \(joins.joined(separator: " "))
            WHERE n.entity = ? AND n.tbl = \(names.tableNumbers[table]!) ORDER BY n.key
            """
        return (sql, columns)
    }

    /// The current row's properties, by name, in the order `columns` gives.
    private func values(_ row: Statement, _ columns: EntityColumns, _ names: ObjectNames) -> [(String, ObjectDifference.PropertyValue)] {
        var values: [(String, ObjectDifference.PropertyValue)] = []
        var index = 1
        for attribute in columns.attributes {
            var value = row.value(at: index)
            // Text read as its bytes: valid UTF-8 keeps them exactly as a String; anything else
            // stays bytes, never a repaired String that could equal another store's.
            if attribute.type == .string || attribute.type == .uri, case .blob(let bytes) = value,
               let text = String(validating: bytes, as: UTF8.self) {
                value = .text(text)
            }
            values.append((attribute.name, .attribute(value, attribute.type)))
            index += 1
        }
        for name in columns.toOnes {
            let destinationEntity = row.value(at: index).text, key = row.value(at: index + 1).text
            let target = row.value(at: index + 2).integer
            index += 3
            if let destinationEntity, let key {
                values.append((name, .object(names.object(entity: destinationEntity, key: key))))
            } else if let target {
                // A to-one that points at no object: named by the missing Z_PK.
                values.append((name, .object(NamedObject(entity: "Z_PK \(target)", isKeyed: false, values: [], ordinal: 0))))
            } else {
                values.append((name, .object(nil)))
            }
        }
        for name in columns.positions {
            values.append((name + " position", .position(row.value(at: index).integer)))
            index += 1
        }
        return values
    }

    /// Whether the current rows of `a` and `b` (same key) differ, compared column by column
    /// before any value is decoded: the cheap test that most objects pass. A to-one is its
    /// destination's entity and key; its raw `Z_PK` only counts where it names no object.
    static func rowsDiffer(_ a: Statement, _ b: Statement, _ columns: EntityColumns) -> Bool {
        var index = 1
        for _ in columns.attributes {
            if !a.value(at: index).isIdentical(to: b.value(at: index)) { return true }
            index += 1
        }
        for _ in columns.toOnes {
            let keyA = a.value(at: index + 1)
            if !a.value(at: index).isIdentical(to: b.value(at: index)) || !keyA.isIdentical(to: b.value(at: index + 1)) { return true }
            if keyA == .null && !a.value(at: index + 2).isIdentical(to: b.value(at: index + 2)) { return true }
            index += 3
        }
        for _ in columns.positions {
            if !a.value(at: index).isIdentical(to: b.value(at: index)) { return true }
            index += 1
        }
        return false
    }

    /// Orders two keys as SQLite's BINARY collation does (by UTF-8 bytes): -1, 0 or 1.
    static func compare(_ a: String, _ b: String) -> Int {
        if a.utf8.elementsEqual(b.utf8) { return 0 }
        return a.utf8.lexicographicallyPrecedes(b.utf8) ? -1 : 1
    }

    /// True when two property values are the same byte for byte.
    static func same(_ a: ObjectDifference.PropertyValue, _ b: ObjectDifference.PropertyValue) -> Bool {
        switch (a, b) {
        case (.attribute(let x, _), .attribute(let y, _)): x.isIdentical(to: y)
        case (.object(let x), .object(let y)): x == y
        case (.position(let x), .position(let y)): x == y
        default: false
        }
    }

    /// True for NULL, no destination and no position.
    static func isEmpty(_ value: ObjectDifference.PropertyValue) -> Bool {
        switch value {
        case .attribute(let value, _): value == .null
        case .object(let object): object == nil
        case .position(let position): position == nil
        case .links(let objects): objects.isEmpty
        }
    }

    /// The empty value of `value`'s kind.
    static func none(like value: ObjectDifference.PropertyValue) -> ObjectDifference.PropertyValue {
        switch value {
        case .attribute(_, let type): .attribute(.null, type)
        case .object: .object(nil)
        case .position: .position(nil)
        case .links: .links([])
        }
    }
}
