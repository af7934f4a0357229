import SeedModel

extension Database {
    /// The objects `request` matches, read with the model's layout.
    func fetchObjects(_ request: FetchRequest, layout: StoreLayout) throws -> [FetchedObject] {
        let compiled = try request.compile(for: layout)
        let model = layout.model
        var columnIndex: [String: Int]?
        var objects: [FetchedObject] = []
        var destinationKeys: [String: Statement] = [:]
        let statement = try prepare(compiled.sql)
        try statement.bind(compiled.arguments)
        while try statement.step() {
            if columnIndex == nil {
                columnIndex = Dictionary(uniqueKeysWithValues: (0..<statement.columnCount).map { (statement.columnName(at: $0), $0) })
            }
            let row = statement.row()
            guard let number = row[1].integer, let entityLayout = layout.entity(number: Int(number)),
                  let entity = model.entity(named: entityLayout.name) else { continue }
            var object = FetchedObject(entity: entity.name, primaryKey: row[0].integer ?? 0, attributes: [], toOnes: [])
            for attribute in model.storedAttributes(of: entity) where !attribute.isTransient {
                guard let column = layout.column(for: attribute.name, of: entity.name), let index = columnIndex![column] else { continue }
                var value = row[index]
                if attribute.storesExternalBinaryMarker, case .blob(let stored) = value {
                    value = .blob(ExternalBinary.contents(stored))  // the data, as the app sees it
                }
                object.attributes.append((attribute.name, value))
            }
            for relationship in model.allRelationships(of: entity) where !relationship.isToMany && !relationship.isTransient {
                guard let column = layout.column(for: relationship.name, of: entity.name), let index = columnIndex![column] else { continue }
                var destination = row[index]
                if let pk = destination.integer, let target = model.entity(named: relationship.destinationEntity) {
                    destination = try naturalKey(of: target, primaryKey: pk, layout: layout, cache: &destinationKeys)
                }
                object.toOnes.append((relationship.name, destination))
            }
            objects.append(object)
        }
        return objects
    }

    /// The number of objects `request` matches (honouring its limit and offset).
    func countObjects(_ request: FetchRequest, layout: StoreLayout) throws -> Int {
        let compiled = try request.compile(for: layout, selecting: .count)
        return Int(try scalar(compiled.sql, compiled.arguments)?.integer ?? 0)
    }

    private func naturalKey(of entity: EntityDescription, primaryKey: Int64, layout: StoreLayout,
                            cache: inout [String: Statement]) throws -> SQLValue {
        let model = layout.model
        guard let key = model.singleAttributeKey(of: entity),
              let column = layout.column(for: key.name, of: entity.name),
              let table = layout.entity(named: entity.name)?.table else {
            return .text("\(entity.name) #\(primaryKey)")
        }
        let sql = "SELECT \(column) FROM \(table) WHERE Z_PK = ?"
        let statement = try cache[sql] ?? prepare(sql)
        cache[sql] = statement
        defer { statement.reset() }
        try statement.bind([.integer(primaryKey)])
        return try statement.step() ? statement.value(at: 0) : .null
    }
}
