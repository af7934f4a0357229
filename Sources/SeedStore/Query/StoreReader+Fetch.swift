import SeedModel

/// One fetched object: its entity, `Z_PK`, attribute values and to-one destinations.
public struct FetchedObject: Sendable, Hashable {
    /// The object's (concrete) entity.
    public var entity: String
    /// Its `Z_PK`.
    public var primaryKey: Int64
    /// Attribute values in model order (Dates as seconds since 2001, Booleans as 0/1).
    public var attributes: [(name: String, value: SQLValue)]
    /// To-one relationships in model order: the destination's natural key (its single-attribute
    /// uniqueness constraint), else `Entity #pk`; NULL when not set.
    public var toOnes: [(name: String, destination: SQLValue)]

    public static func == (lhs: FetchedObject, rhs: FetchedObject) -> Bool {
        lhs.entity == rhs.entity && lhs.primaryKey == rhs.primaryKey
            && lhs.attributes.elementsEqual(rhs.attributes) { $0 == $1 }
            && lhs.toOnes.elementsEqual(rhs.toOnes) { $0 == $1 }
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(entity)
        hasher.combine(primaryKey)
    }

    /// The value of an attribute or to-one by name.
    public subscript(name: String) -> SQLValue? {
        attributes.first { $0.name == name }?.value ?? toOnes.first { $0.name == name }?.destination
    }
}

extension FetchedObject {
    /// The object's identity.
    public var objectID: ObjectID { ObjectID(entity: entity, primaryKey: primaryKey) }
}

extension StoreReader {
    /// The objects `request` matches, read with the model's layout.
    public func fetch(_ request: FetchRequest, layout: StoreLayout) throws -> [FetchedObject] {
        try file.database.fetchObjects(request, layout: layout)
    }

    /// The number of objects `request` matches (honouring its limit and offset).
    public func count(_ request: FetchRequest, layout: StoreLayout) throws -> Int {
        try file.database.countObjects(request, layout: layout)
    }
}

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
            for attribute in model.allAttributes(of: entity) where !attribute.isTransient {
                guard let column = layout.column(for: attribute.name, of: entity.name), let index = columnIndex![column] else { continue }
                object.attributes.append((attribute.name, row[index]))
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
