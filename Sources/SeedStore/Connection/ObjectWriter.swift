import SeedModel

/// Inserts, updates, relates and deletes objects inside one transaction of a
/// `StoreConnection`, the way Core Data's save would: `Z_PK` from `Z_PRIMARYKEY.Z_MAX`,
/// `Z_OPT` counted up once per changed object, both sides of every relationship kept, delete
/// rules applied, required values checked before the transaction commits.
public final class ObjectWriter {
    /// The store's layout.
    public let layout: StoreLayout
    /// Every statement goes through the store's one writer of Core Data SQL.
    let rows: ObjectRows
    /// Objects inserted or changed in this transaction (their `Z_OPT` is already counted).
    private(set) var changed: Set<ObjectID> = []
    /// Objects deleted in this transaction.
    private(set) var deleted: Set<ObjectID> = []
    /// Validation rules by `Entity.attribute`, read from the model once.
    private var rules: [String: ValueRules?] = [:]

    var model: DataModel { layout.model }

    init(database: Database, layout: StoreLayout) {
        self.layout = layout
        self.rows = ObjectRows(database: database, layout: layout)
    }

    /// True once anything was written.
    public var hasChanges: Bool { !changed.isEmpty || !deleted.isEmpty }

    /// Inserts an object of `entity` with attribute values (unset attributes get the model's
    /// default); relationships are set afterwards with `relate` and `add`.
    @discardableResult
    public func insert(_ entity: String, _ values: [String: SQLValue] = [:]) throws -> ObjectID {
        let description = try entityDescription(entity)
        guard !description.isAbstract else { throw WriteError(.abstractEntity(entity), "cannot insert an object of the abstract entity '\(entity)'") }
        let entityLayout = layout.entity(named: entity)!
        let root = layout.entity(named: model.root(of: description).name)!
        let key = try rows.takePrimaryKey(forRoot: root)
        try rows.insert(entityLayout, primaryKey: key, values: try attributeAssignments(values, of: description, withDefaults: true))
        let object = ObjectID(entity: entity, primaryKey: key)
        changed.insert(object)
        return object
    }

    /// Sets attribute values of an existing object (`.null` clears one).
    public func update(_ object: ObjectID, _ values: [String: SQLValue]) throws {
        let object = try resolve(object)
        let assignments = try attributeAssignments(values, of: model.entity(named: object.entity)!, withDefaults: false)
        guard !assignments.isEmpty else { return }
        try rows.update(object.primaryKey, in: table(of: object), set: assignments)
        try markChanged(object)
    }

    /// Deletes an object, applying each relationship's delete rule (Nullify, Cascade, Deny;
    /// No Action is treated as Nullify, so that no reference is left dangling).
    public func delete(_ object: ObjectID) throws {
        let object = try resolve(object)
        guard !deleted.contains(object) else { return }
        deleted.insert(object)
        changed.remove(object)
        let entity = model.entity(named: object.entity)!
        for relationship in model.allRelationships(of: entity) where !relationship.isTransient {
            let destinations = try self.destinations(of: object, relationship).filter { !deleted.contains($0) }
            guard !destinations.isEmpty else { continue }
            switch relationship.deletionRule {
            case .deny:
                throw WriteError(.deleteDenied(object, relationship: relationship.name), "cannot delete \(object): its relationship '\(relationship.name)' still leads to \(destinations[0]) (delete rule Deny)")
            case .cascade:
                for destination in destinations { try delete(destination) }
            case .nullify, .noAction:
                for destination in destinations {
                    try detach(object, from: destination, through: relationship)
                }
            }
        }
        // An owner whose to-many without an inverse held it loses a member: checked again.
        let ownerColumns = layout.table(named: table(of: object))?.columns.filter {
            if case .ownerKey(object.entity, _, _) = $0.role { true } else { false }
        } ?? []
        if !ownerColumns.isEmpty {
            let owners = try rows.values(of: object.primaryKey, in: table(of: object), columns: ownerColumns.map(\.name))
            for (column, value) in zip(ownerColumns, owners) {
                if let owner = column.referencedEntity, let key = value.integer, let found = try? resolve(ObjectID(entity: owner, primaryKey: key)) {
                    try markChanged(found)
                }
            }
        }
        try rows.delete(object.primaryKey, from: table(of: object))
    }

    /// Checks every object this transaction inserted or changed: required attributes have
    /// values and required to-one relationships are set (what Core Data validates on save).
    func validate() throws {
        for object in changed.sorted(by: { ($0.entity, $0.primaryKey) < ($1.entity, $1.primaryKey) }) {
            let entity = model.entity(named: object.entity)!
            var required: [(name: String, column: String, kind: String)] = []
            for attribute in model.storedAttributes(of: entity) where !attribute.isOptional && !attribute.isTransient {
                if let column = layout.column(for: attribute.name, of: entity.name) { required.append((attribute.name, column, "attribute")) }
            }
            for relationship in model.allRelationships(of: entity) where !relationship.isOptional && !relationship.isToMany && !relationship.isTransient {
                if let column = layout.column(for: relationship.name, of: entity.name) { required.append((relationship.name, column, "relationship")) }
            }
            for relationship in model.allRelationships(of: entity) where relationship.isToMany {
                if let found = try rows.firstCountViolation(of: relationship, from: entity.name, object: object.primaryKey) {
                    throw WriteError(.countOutOfRange(object, relationship: relationship.name, count: found.count),
                                     "\(object): \(relationship.name) has \(found.count) object(s); the model allows \(relationship.minCount)\(relationship.maxCount > 0 ? "...\(relationship.maxCount)" : " or more") (minCount/maxCount)")
                }
            }
            guard !required.isEmpty else { continue }
            let stored = try rows.values(of: object.primaryKey, in: table(of: object), columns: required.map(\.column))
            for (index, value) in stored.enumerated() where value == .null {
                throw WriteError(.missingValue(object, property: required[index].name), "\(object): the required \(required[index].kind) '\(required[index].name)' has no value")
            }
        }
    }

    // MARK: - Helpers shared with the relationship methods

    func entityDescription(_ name: String) throws -> EntityDescription {
        guard let entity = model.entity(named: name) else { throw WriteError(.unknownEntity(name), "the model has no entity '\(name)'") }
        return entity
    }

    /// The object as stored: it must exist, and its concrete entity is read from `Z_ENT`.
    func resolve(_ object: ObjectID) throws -> ObjectID {
        let entity = try entityDescription(object.entity)
        let entityLayout = layout.entity(named: entity.name)!
        let number = try rows.entityNumber(of: object.primaryKey, in: entityLayout.table)
        guard let number, entityLayout.subtreeNumbers.contains(number), let concrete = layout.entity(number: number) else {
            throw WriteError(.noSuchObject(object), "there is no \(object) in the store")
        }
        return ObjectID(entity: concrete.name, primaryKey: object.primaryKey)
    }

    func table(of object: ObjectID) -> String {
        layout.entity(named: object.entity)!.table
    }

    /// Counts `Z_OPT` up once per transaction for an object that changed.
    func markChanged(_ object: ObjectID) throws {
        guard !changed.contains(object), !deleted.contains(object) else { return }
        try rows.countChange(of: object.primaryKey, in: table(of: object))
        changed.insert(object)
    }

    /// Column assignments for attribute values, checked against the attributes' types.
    private func attributeAssignments(_ values: [String: SQLValue], of entity: EntityDescription,
                                      withDefaults: Bool) throws -> [(column: String, value: SQLValue)] {
        var remaining = values
        var result: [(column: String, value: SQLValue)] = []
        for attribute in model.storedAttributes(of: entity) where !attribute.isTransient {
            guard let column = layout.column(for: attribute.name, of: entity.name) else { continue }
            if let value = remaining.removeValue(forKey: attribute.name) {
                var stored = try Self.coerce(value, to: attribute, of: entity.name)
                if let problem = try rules(of: attribute, in: entity.name)?.violation(stored) {
                    throw WriteError(.invalidValue(entity: entity.name, attribute: attribute.name), "\(entity.name).\(attribute.name): \(problem)")
                }
                if attribute.storesExternalBinaryMarker, case .blob(let bytes) = stored {
                    stored = .blob(ExternalBinary.inline(bytes))  // kept in the store, as Core Data marks it
                }
                result.append((column, stored))
            } else if withDefaults, let value = try attribute.storedDefaultValue() {
                result.append((column, value))
            }
        }
        if let name = remaining.keys.sorted().first {
            let isRelationship = model.allRelationships(of: entity).contains { $0.name == name }
            throw WriteError(isRelationship ? .wrongKindOfProperty(entity: entity.name, property: name) : .unknownProperty(entity: entity.name, property: name), isRelationship
                ? "'\(entity.name).\(name)' is a relationship; set it with relate(_:_:to:) or add(_:_:_:)"
                : "entity '\(entity.name)' has no attribute '\(name)'\(NameSuggestion.hint(for: name, in: model.storedAttributes(of: entity).map(\.name)))")
        }
        return result
    }

    /// The validation rules of an attribute (what Core Data checks on save).
    private func rules(of attribute: AttributeDescription, in entity: String) throws -> ValueRules? {
        let key = "\(entity).\(attribute.name)"
        if let known = rules[key] { return known }
        let read: ValueRules?
        do {
            read = try ValueRules(attribute)
        } catch {
            throw WriteError(.invalidValue(entity: entity, attribute: attribute.name), "\(key): \(error)")
        }
        rules[key] = read
        return read
    }

    /// A value as the attribute's column stores it, or an error naming the attribute.
    static func coerce(_ value: SQLValue, to attribute: AttributeDescription, of entity: String) throws -> SQLValue {
        switch (attribute.type, value) {
        case (_, .null):
            return .null
        case (.integer16, .integer(let number)) where Int16(exactly: number) == nil,
             (.integer32, .integer(let number)) where Int32(exactly: number) == nil:
            throw WriteError(.invalidValue(entity: entity, attribute: attribute.name), "\(entity).\(attribute.name): \(number) does not fit an \(attribute.type.rawValue) attribute")
        case (.integer16, .integer), (.integer32, .integer), (.integer64, .integer):
            return value
        case (.boolean, .integer(let number)) where number == 0 || number == 1:
            return value
        case (.double, .integer(let number)), (.float, .integer(let number)), (.date, .integer(let number)), (.decimal, .integer(let number)):
            return .real(Double(number))
        case (.double, .real), (.float, .real), (.date, .real), (.decimal, .real),
             (.string, .text), (.uri, .text), (.binary, .blob), (.transformable, .blob), (.uuid, .blob):
            return value
        default:
            throw WriteError(.invalidValue(entity: entity, attribute: attribute.name), "\(entity).\(attribute.name) is a \(attribute.type.rawValue) attribute; \(value) does not fit it")
        }
    }
}

@available(*, unavailable)
extension ObjectWriter: Sendable {}
