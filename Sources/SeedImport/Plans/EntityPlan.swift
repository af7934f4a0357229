import SeedModel
import SeedStore

/// Everything the repository needs to write one entity's rows: its columns in INSERT order,
/// a converter per attribute, its to-one columns, its natural key and the reused statements.
final class EntityPlan {
    /// One attribute's column and converter (a class: passed around on the hot path, one retain).
    final class AttributeSlot {
        let attribute: AttributeDescription
        let column: String
        /// 1-based INSERT parameter.
        let parameter: Int32
        let converter: ValueConverter
        /// The model's default value, converted; nil when there is none.
        let defaultValue: SQLValue?
        /// The model's validation rules; nil for the many attributes that have none.
        let rules: ValueRules?

        init(attribute: AttributeDescription, column: String, parameter: Int32, converter: ValueConverter,
             defaultValue: SQLValue?, rules: ValueRules?) {
            self.attribute = attribute
            self.column = column
            self.parameter = parameter
            self.converter = converter
            self.defaultValue = defaultValue
            self.rules = rules
        }
    }

    /// One to-one relationship's columns.
    final class ToOneSlot {
        let relationship: RelationshipDescription
        /// The foreign key and its companions (destination entity, position in an ordered inverse).
        let columns: ToOneColumns
        let parameter: Int32

        /// The foreign key column.
        var column: String { columns.key }
        /// How its references by key are resolved, once its first one came (`KeyResolver.route`).
        @exclusivity(unchecked) var keyRoute = KeyRoute.undecided

        init(relationship: RelationshipDescription, columns: ToOneColumns, parameter: Int32) {
            self.relationship = relationship
            self.columns = columns
            self.parameter = parameter
        }
    }

    let entity: EntityDescription
    let layout: EntityLayout
    let table: String
    let attributes: [String: AttributeSlot]
    let attributeSlots: [AttributeSlot]
    let toOnes: [String: ToOneSlot]
    let relationships: [String: RelationshipDescription]
    /// SwiftData enums without raw values by property name: each case's element, by case name
    /// (`weather` → `sun` → the slot of `weather.sun`).
    let enumCases: [String: [String: AttributeSlot]]
    /// SwiftData Composites whose elements have their own names (structs): property names.
    let composites: Set<String>
    /// Optional structs whose values must give some members (`incompleteComposite`).
    let compositeRequirements: [CompositeRequirement]
    /// The attributes that name and merge this entity's objects (`NaturalKey`), and their slots.
    let key: NaturalKey?
    let keySlots: [AttributeSlot]
    /// The INSERT parameters of `keySlots`, in order.
    let keyParameters: [Int]
    let insert: Statement
    let parameterCount: Int32
    /// The most bytes a row of this entity takes beside its values' own lengths: 9 bytes a column
    /// with the header's (numbers, dates, Booleans and to-one keys take no more).
    let fixedRowBytes: Int
    /// The INSERT parameters whose values have a length of their own (text, binary data): a row
    /// is measured by these alone.
    let variableParameters: [Int]
    let primaryKeys: PrimaryKeySequence
    /// The object being built, by INSERT parameter (a buffer: no copy, no exclusivity checks per value).
    let values: UnsafeMutableBufferPointer<SQLValue?>
    /// The keys of the entity tree that declares `key` (from `KeyResolver.objectKeys(declaring:)`).
    @exclusivity(unchecked) var objectKeys: ObjectKeys?
    /// True when rows of this entity keep where they were defined, for messages at `finish`
    /// (keyed objects, those of a key through a to-one, and objects with a required to-one).
    let tracksDefinitions: Bool
    /// True when the entity's key names a to-one (`--key Ingredient=recipe,name`): `key` is
    /// nil, and `finish` checks that no two objects give one key.
    let isKeyedWithinOwner: Bool
    /// What the model says that is read other than as written (`defaultValueReading`), with its line.
    let warnings: [String]
    /// The INSERT parameters of the attributes `finish` settles for objects a later mention may
    /// complete (keyed or identified; those with a default, and the required ones), and whether
    /// a row was written with one of them NULL: only then does `finish` look for NULLs (a merge
    /// fills columns, nothing empties one).
    let settledParameters: [Int]
    @exclusivity(unchecked) var wroteUnsettledRow = false
    /// Whether a row a later mention may complete was written for an entity with
    /// `compositeRequirements`: only then does `finish` look for a struct given in part.
    @exclusivity(unchecked) var wroteUncheckedComposite = false
    /// Rows with an attribute given nil that has a default (`Z_PK`, column): `finish` fills no
    /// default there unless a later mention gave a value.
    var keptNulls: [(primaryKey: Int64, column: String)] = []

    deinit {
        values.deinitialize()
        values.deallocate()
    }

    /// What a property name stands for in this entity.
    enum Property {
        case attribute(AttributeSlot)
        case toOne(ToOneSlot)
        case toMany(RelationshipDescription)
        /// A SwiftData enum without raw values, given by a case's name: its elements' slots by case.
        case enumCase([String: AttributeSlot])
        case unknown
    }

    /// The error for a property that cannot take a single value here (a to-many, or no such property).
    func valueError(_ property: String, at location: InputLocation) -> InputError {
        if relationships[property]?.isToMany == true {
            return InputError("\(entity.name).\(property) is a to-many relationship: give its objects nested, not as a value", at: location)
        }
        if composites.contains(property) {
            let elements = attributeSlots.map(\.attribute.name).filter { $0.hasPrefix(property + ".") }
            return InputError("\(entity.name).\(property) is a struct: give its values by path (\(elements.joined(separator: ", "))), or in JSON or a property list as one object", at: location)
        }
        return unknownProperty(property, at: location, toOne: true)
    }

    /// The error for a name that is no property of this entity, naming the nearest property
    /// when it looks like a slip (`NameSuggestion`); `toOne` where only values are taken.
    func unknownProperty(_ name: String, at location: InputLocation, toOne: Bool = false) -> InputError {
        let names = Array(attributes.keys) + Array(toOnes.keys) + Array(composites) + Array(enumCases.keys)
            + (toOne ? [] : relationships.values.filter(\.isToMany).map(\.name))
        let kind = toOne ? "attribute or to-one relationship" : "attribute or relationship"
        return InputError("entity '\(entity.name)' has no \(kind) '\(name)'\(NameSuggestion.hint(for: name, in: names.sorted()))", at: location)
    }

    /// `'Deutschland'`: the natural key of the object being built (in `values`).
    func describeKey() -> String {
        guard let key else { return "" }
        let parts = key.names.compactMap { name in attributes[name].flatMap { slot in values[Int(slot.parameter)]?.shown(as: slot.attribute.type) } }
        return parts.joined(separator: ", ")
    }

    /// ` (first defined at file:line)`, when the table's rows keep where they were defined.
    func firstDefinition(of primaryKey: Int64) -> String {
        primaryKeys.definition(of: primaryKey).map { " (first defined at \($0))" } ?? ""
    }

    func property(named name: String) -> Property {
        if let slot = attributes[name] { return .attribute(slot) }
        if let slot = toOnes[name] { return .toOne(slot) }
        if let relationship = relationships[name] { return .toMany(relationship) }
        if let cases = enumCases[name] { return .enumCase(cases) }
        return .unknown
    }

    init(entity: EntityDescription, storeLayout: StoreLayout, builder: StoreBuilder, options: ImportOptions,
         primaryKeys: PrimaryKeySequence) throws(InputError) {
        self.primaryKeys = primaryKeys
        let model = storeLayout.model
        let layout = storeLayout.entity(named: entity.name)!
        let origin = InputLocation(file: model.source, line: entity.line, column: 0)
        self.entity = entity
        self.layout = layout
        self.table = layout.table
        var warnings: [String] = []
        var columns: [String] = []
        var slots: [AttributeSlot] = []
        for attribute in model.storedAttributes(of: entity) where !attribute.isTransient {
            let column = storeLayout.column(for: attribute.name, of: entity.name)!
            columns.append(column)
            let converter: ValueConverter
            do {
                converter = try ValueConverter(
                    attribute: attribute, datePattern: options.datePattern,
                    overridePattern: options.attributeDatePatterns["\(entity.name).\(attribute.name)"],
                    defaultOffset: options.timeZoneOffset)
            } catch {
                throw InputError("attribute '\(entity.name).\(attribute.name)': \(error)", at: origin)
            }
            let defaultValue: SQLValue?
            let rules: ValueRules?
            let attributeLine = InputLocation(file: model.source, line: attribute.line, column: 0)
            do {
                defaultValue = try attribute.storedDefaultValue()
                if let reading = attribute.defaultValueReading {
                    warnings.append("\(model.source):\(attribute.line): '\(entity.name).\(attribute.name)': \(reading)")
                }
                rules = try ValueRules(attribute)
            } catch {
                throw InputError("'\(entity.name).\(attribute.name)': \(error)", at: attributeLine)
            }
            if let rules, let defaultValue, let problem = rules.violation(defaultValue) {
                throw InputError("'\(entity.name).\(attribute.name)': the default value breaks the model's own rule: \(problem)", at: attributeLine)
            }
            slots.append(AttributeSlot(attribute: attribute, column: column, parameter: Int32(columns.count + 1),
                                       converter: converter, defaultValue: defaultValue, rules: rules))
        }
        var toOnes: [String: ToOneSlot] = [:]
        var relationships: [String: RelationshipDescription] = [:]
        for relationship in model.allRelationships(of: entity) where !relationship.isTransient {
            relationships[relationship.name] = relationship
            guard !relationship.isToMany else { continue }
            let stored = storeLayout.toOneColumns(for: relationship.name, of: entity.name)!
            columns.append(stored.key)
            toOnes[relationship.name] = ToOneSlot(relationship: relationship, columns: stored, parameter: Int32(columns.count + 1))
        }
        self.attributeSlots = slots
        let attributes = Dictionary(uniqueKeysWithValues: slots.map { ($0.attribute.name, $0) })
        var enumCases: [String: [String: AttributeSlot]] = [:]
        var composites: Set<String> = []
        for composite in model.allAttributes(of: entity) where composite.elements != nil && !composite.isTransient {
            if let cases = composite.declaredValue?.cases, cases.allSatisfy({ $0.rawValue == nil }) {
                enumCases[composite.name] = Dictionary(uniqueKeysWithValues: cases.compactMap { member in
                    attributes[composite.name + "." + member.name].map { (member.name, $0) }
                })
            } else if composite.declaredValue == nil {
                composites.insert(composite.name)
            }
        }
        self.enumCases = enumCases
        self.composites = composites
        self.compositeRequirements = Self.compositeRequirements(of: entity, in: model, slots: attributes)
        self.attributes = attributes
        self.toOnes = toOnes
        self.relationships = relationships
        self.key = NaturalKey.of(entity, in: model, buildKeys: options.keys)
        self.keySlots = key?.names.compactMap { attributes[$0] } ?? []
        self.keyParameters = keySlots.map { Int($0.parameter) }
        self.warnings = warnings
        self.isKeyedWithinOwner = model.naturalKey(of: entity, buildKeys: options.keys).map { NaturalKey.isThroughToOne($0, in: model, buildKeys: options.keys) } ?? false
        self.tracksDefinitions = key != nil || isKeyedWithinOwner || toOnes.values.contains { !$0.relationship.isOptional }
        self.settledParameters = slots.filter { $0.defaultValue != nil || !$0.attribute.isOptional }.map { Int($0.parameter) }
        self.parameterCount = Int32(columns.count + 1)
        self.fixedRowBytes = 9 * (columns.count + 2)
        self.variableParameters = slots.filter { !ColumnLayout.holdsFixedLength($0.attribute.type) }.map { Int($0.parameter) }
        do {
            self.insert = try builder.objectRows.insertStatement(for: layout, columns: columns)
        } catch {
            throw InputError("\(error)", at: origin)
        }
        self.values = .allocate(capacity: columns.count + 2)
        self.values.initialize(repeating: nil)
    }
}
