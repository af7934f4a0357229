import SeedModel
import SeedStore

/// Turns objects from any parser delegate into rows in Core Data's layout: converts values by
/// the model's attribute types, merges objects with the same natural key (the model's first
/// uniqueness constraint), resolves references by key in any order and across files, and
/// writes relationships on both sides as Core Data does. Every problem is an `InputError`
/// naming the file, line and column, the entity and the property.
public final class SeedRepository {
    /// The layout being written.
    public let layout: StoreLayout
    let builder: StoreBuilder
    let options: ImportOptions
    var plans: [String: EntityPlan] = [:]
    @exclusivity(unchecked) var lastPlan: (name: String, plan: EntityPlan)?
    /// One key sequence per table, shared by the plans of its entities (with where rows were defined).
    var primaryKeys: [String: PrimaryKeySequence] = [:]
    /// Natural keys: which object has which, and the references by key of simple to-ones.
    let keys: KeyResolver
    /// Whether any object was merged into an earlier one (its references are then compared).
    @exclusivity(unchecked) var merged = false
    /// Whether the object being built has an attribute given nil (`giveNil`): only then does
    /// `commitObject` look for them (the hot path does not).
    @exclusivity(unchecked) var givenNil = false
    /// References by key to objects not written yet, with the place each reserved in an ordered list.
    var pendingKeys = PendingReferences()
    /// Source-local identifiers given so far, and the references to those not given yet.
    var identifiers = SourceIdentifiers()
    /// What the model says that the build reads other than as written (an Integer default `NO`).
    package internal(set) var warnings: [String] = []
    /// Links written into rows, and places in ordered to-manys.
    let links: LinkWriter
    /// The owner and to-many the next object is nested in (`nest(in:_:)`), and whether that
    /// object's row took the owner (`linkNested`).
    @exclusivity(unchecked) var nestedIn: (owner: ObjectReference, relationship: String)?
    @exclusivity(unchecked) var ownerLinked = false
    @exclusivity(unchecked) var lastOwnerSlot: (entity: String, relationship: String, plan: EntityPlan, slot: EntityPlan.ToOneSlot?)?
    /// Rows written so far (merges not counted).
    @exclusivity(unchecked) public private(set) var rowsWritten = 0
    /// The values of the object being built: the current plan's buffer (indexed by INSERT parameter).
    @exclusivity(unchecked) var values = UnsafeMutableBufferPointer<SQLValue?>(start: nil, count: 0)
    /// The object being built's references by key, each with the line and column its key was
    /// given at (0 and 0: the object's own place, where a format has no place of a value's own).
    @exclusivity(unchecked) private var references: [(slot: EntityPlan.ToOneSlot, key: String, line: Int, column: Int)] = []
    /// What is wrong with the build-time keys of `options`, if anything.
    private lazy var keyProblem: String? = NaturalKey.problems(of: options.keys, in: model).first
    /// Which entity a property list's section names.
    lazy var sectionNames = SectionNames(model: model, explicit: options.sectionNames)

    var model: DataModel { layout.model }

    /// A repository writing into `builder`.
    public init(builder: StoreBuilder, options: ImportOptions = ImportOptions()) {
        self.builder = builder
        self.layout = builder.layout
        self.options = options
        self.keys = KeyResolver(builder: builder, buildKeys: options.keys)
        self.links = LinkWriter(builder: builder)
    }

    /// The write plan of a concrete entity named in the input.
    func plan(for name: String, at location: InputLocation) throws(InputError) -> EntityPlan {
        // Readers hand the same String storage for the same element name: a cheap comparison.
        if let lastPlan, lastPlan.name == name { return lastPlan.plan }
        if let plan = plans[name] {
            lastPlan = (name, plan)
            return plan
        }
        if let keyProblem {
            throw InputError(keyProblem, at: InputLocation(file: model.source, line: 0, column: 0))
        }
        guard let entity = model.entity(named: name) else {
            let names = model.entities.map(\.name)
            throw InputError("unknown entity '\(name)' (the model has \(names.joined(separator: ", ")))\(NameSuggestion.hint(for: name, in: names))", at: location)
        }
        let table = layout.entity(named: name)!.table
        let sequence = primaryKeys[table] ?? PrimaryKeySequence()
        primaryKeys[table] = sequence
        let plan = try EntityPlan(entity: entity, storeLayout: layout, builder: builder, options: options, primaryKeys: sequence)
        warnings += plan.warnings
        plan.objectKeys = plan.key.map(keys.objectKeys(declaring:))
        plans[name] = plan
        return plan
    }

    /// Writes one object, or merges it into the object with the same natural key.
    ///
    /// `values` maps attribute names to their text, and to-one relationship names to the
    /// natural key of their destination. Returns the object's reference.
    @discardableResult
    public func insert(entity name: String, values given: [(name: String, value: String)], at location: InputLocation) throws(InputError) -> ObjectReference {
        try insert(entity: name, sourceValues: given.map { ($0.name, .text($0.value)) }, at: location)
    }

    /// Writes one object whose values may already be typed; see `insert(entity:values:at:)`.
    @discardableResult
    public func insert(entity name: String, sourceValues given: [(name: String, value: SourceValue)], identifier: String? = nil,
                       at location: InputLocation) throws(InputError) -> ObjectReference {
        let plan = try plan(for: name, at: location)
        return try insert(plan, given.map { ($0.name, plan.property(named: $0.name), $0.value, location) },
                          nils: [], identifier: identifier, at: location)
    }

    /// Writes one object of `plan`'s entity whose values' properties are known (a tree's writer
    /// looked them up already), each value with its own place (for messages), and the
    /// attributes given as nil (`giveNil`).
    func insert(_ plan: EntityPlan, _ given: [(name: String, property: EntityPlan.Property, value: SourceValue, location: InputLocation)],
                nils: [(name: String, location: InputLocation)], identifier: String?,
                at location: InputLocation) throws(InputError) -> ObjectReference {
        try beginObject(plan, at: location)
        for (name, property, source, place) in given {
            switch (property, source) {
            case (.attribute(let slot), .value(let value)):
                try plan.check(value, slot, at: place)
                values[Int(slot.parameter)] = value
                givenNil = givenNil || value == .null
            case (.attribute(let slot), .text(var text)):
                try text.withUTF8 { bytes in Result { () throws(InputError) in try plan.setValue(slot, bytes, at: place) } }.get()
            case (.toOne(let slot), .text(let key)):
                references.append((slot, key, place.file == location.file ? place.line : 0, place.column))
            case (.toOne, .value):
                throw InputError("\(plan.entity.name).\(name) names its destination by key: give the key as text", at: place)
            case (.enumCase(let cases), .text(var text)):
                try plan.setCase(cases, &text, of: name, at: place)
            case (.toMany, _), (.unknown, _), (.enumCase, .value):
                throw plan.valueError(name, at: place)
            }
        }
        for (property, place) in nils { try giveNil(property, of: plan, at: place) }
        return try commitObject(plan, identifier: identifier, at: location)
    }

    /// Starts an object of the named entity: clears the values of the last one.
    func beginObject(_ name: String, at location: InputLocation) throws(InputError) -> EntityPlan {
        let plan = try plan(for: name, at: location)
        try beginObject(plan, at: location)
        return plan
    }

    /// Starts an object of `plan`'s entity.
    func beginObject(_ plan: EntityPlan, at location: InputLocation) throws(InputError) {
        if plan.entity.isAbstract {
            let concrete = layout.entities.filter { plan.layout.subtreeNumbers.contains($0.number) && !$0.isAbstract }.map(\.name)
            throw InputError("entity '\(plan.entity.name)' is abstract; use one of its sub-entities (\(concrete.joined(separator: ", ")))", at: location)
        }
        values = plan.values
        for index in values.indices { values[index] = nil }
        references.removeAll(keepingCapacity: true)
        givenNil = false
    }

    /// Keeps a reference by natural key of the object being built, given at `line` and
    /// `column` of the object's file (0: the object's own place), where messages about it point.
    func addReference(_ slot: EntityPlan.ToOneSlot, key: String, line: Int = 0, column: Int = 0) {
        references.append((slot, key, line, column))
    }

    /// Where the object being built (at `location`) gave its reference `index`.
    private func place(ofReference index: Int, _ location: InputLocation) -> InputLocation {
        let reference = references[index]
        guard reference.line > 0 else { return location }
        return InputLocation(file: location.file, line: reference.line, column: reference.column)
    }

    /// Writes the object being built, or merges it into the object its source-local
    /// `identifier` or its natural key already names; then its references by key: those of a
    /// new row's simple to-ones straight into the row (to the object, or to the `Z_PK` reserved
    /// for a key not written yet), others into the ledger, or linked now or at `finish`.
    func commitObject(_ plan: EntityPlan, identifier: String? = nil, at location: InputLocation) throws(InputError) -> ObjectReference {
        let owner = nestedIn
        nestedIn = nil
        ownerLinked = false
        let object: ObjectReference
        let identified = try identifier.flatMap { (identifier) throws(InputError) in try identifiedObject(identifier, plan, at: location) }
        // A local constant: the references stay alive, read without a retain each.
        let references = self.references
        var allByLedger = true
        for index in references.indices {
            if case .ledger(let ledger) = try keyRoute(plan, references[index].slot, at: location) {
                try keys.prepare(references[index].key, index, in: ledger, at: place(ofReference: index, location))
            } else {
                allByLedger = false
            }
        }
        let hasKey = keys.setObjectKey(plan)
        keys.touch(plan, hasKey: hasKey, references)
        let match = try keys.match(plan, hasKey: hasKey, at: location)
        var isNew = false
        if case .existing(let primaryKey) = match {
            let existing = ObjectReference(entity: plan.entity.name, entityNumber: plan.layout.number, primaryKey: primaryKey)
            if let identified, let identifier, identified != existing {
                throw InputError("\(plan.entity.name) '\(identifier)' gives the key \(plan.describeKey()) of another \(plan.entity.name)\(plan.firstDefinition(of: existing.primaryKey))", at: location)
            }
            merged = true
            object = try merge(into: existing, plan, at: location)
        } else if let identified {
            merged = true
            object = try merge(into: identified, plan, at: location)
        } else {
            isNew = true
            var primaryKey: Int64
            if case .reserved(let found, _) = match {
                primaryKey = found.primaryKey
                // Defined in another order than references reserved their keys: written by key.
                try builder.rows(at: location) { _ throws(SQLiteError) in try builder.holdBackRows(of: plan.table) }
            } else {
                primaryKey = plan.primaryKeys.next()
            }
            object = ObjectReference(entity: plan.entity.name, entityNumber: plan.layout.number, primaryKey: primaryKey)
            try keys.file(object.primaryKey, match, plan, at: location)
            for index in references.indices {
                let slot = references[index].slot
                guard case .ledger(let ledger) = slot.keyRoute else { continue }
                try keys.record(references[index].key, index, of: object.primaryKey, in: ledger, settingRow: slot, of: plan, at: place(ofReference: index, location))
            }
            if let owner { ownerLinked = try setOwner(owner, of: object, plan, at: location) }
            try insertRow(plan, primaryKey: object.primaryKey, complete: plan.key == nil && identifier == nil, at: location)
        }
        // Defaults filled at `finish` (`insertRow`) leave out what was given nil.
        if givenNil {
            for slot in plan.attributeSlots where slot.defaultValue != nil && values[Int(slot.parameter)] == .null {
                plan.keptNulls.append((object.primaryKey, slot.column))
            }
        }
        if let identifier, identified == nil {
            identifiers.add(identifier, primaryKey: object.primaryKey, entityNumber: object.entityNumber)
            if !SourceIdentifiers.isLocal(identifier) {
                builder.sourceIdentifiers.append((object.entityNumber, object.primaryKey, identifier))
            }
            if isNew && !plan.tracksDefinitions { plan.primaryKeys.define(object.primaryKey, at: location) }
        }
        // What is left: a merged object's references by ledger, and references taking the general path.
        guard !(isNew && allByLedger) else { return object }
        for index in references.indices {
            let (slot, key, _, _) = references[index]
            if case .ledger(let ledger) = slot.keyRoute {
                if !isNew { try keys.record(key, index, of: object.primaryKey, in: ledger, settingRow: nil, of: plan, at: place(ofReference: index, location)) }
            } else {
                try link(object, slot.relationship.name, toKey: key, at: place(ofReference: index, location))
            }
        }
        return object
    }

    /// Fills the NULL columns of an existing row; a different value is a conflict.
    private func merge(into object: ObjectReference, _ plan: EntityPlan, at location: InputLocation) throws(InputError) -> ObjectReference {
        // A nil given (`giveNil`) is no value: what the row holds stays.
        let given = plan.attributeSlots.filter { values[Int($0.parameter)].map { $0 != .null } ?? false }
        guard !given.isEmpty else { return object }
        let stored = try builder.rows(at: location) { rows throws(SQLiteError) in
            try rows.values(of: object.primaryKey, in: plan.table, columns: given.map(\.column))
        }
        var keyCompleted = false
        for (index, slot) in given.enumerated() {
            let value = values[Int(slot.parameter)]!
            let old = index < stored.count ? stored[index] : .null
            if old == .null {
                try builder.rows(at: location) { rows throws(SQLiteError) in try rows.update(object.primaryKey, in: plan.table, set: [(slot.column, value)]) }
                keyCompleted = keyCompleted || plan.keySlots.contains { $0 === slot }
            } else if !Self.sameStoredValue(old, value) {
                let named = plan.key == nil ? "\(object)" : "\(plan.entity.name) \(plan.describeKey())"
                throw InputError("\(named): attribute '\(slot.attribute.name)' is given two different values, \(old.shown(as: slot.attribute.type)) and \(value.shown(as: slot.attribute.type))\(plan.firstDefinition(of: object.primaryKey))", at: location)
            }
        }
        if keyCompleted { try keys.fileCompletedKey(of: object.primaryKey, plan, at: location) }
        return object
    }

    /// Whether a stored value and a given one are the same value: Core Data's NUMERIC columns
    /// (dates, decimals) keep an integral REAL as an INTEGER, so a date of whole seconds reads
    /// back as 559308941 when it was given as 559308941.0.
    static func sameStoredValue(_ stored: SQLValue, _ given: SQLValue) -> Bool {
        switch (stored, given) {
        case (.integer(let integer), .real(let real)), (.real(let real), .integer(let integer)): Double(integer) == real
        default: stored == given
        }
    }

    /// Inserts a new row. An object that nothing can name again (no natural key, no identifier)
    /// is `complete` here: its defaults and required attributes are settled now; others may be
    /// completed by a later mention and are settled by `finish`.
    private func insertRow(_ plan: EntityPlan, primaryKey pk: Int64, complete: Bool, at location: InputLocation) throws(InputError) {
        try plan.settleNewRow(complete: complete, at: location)
        try plan.checkRowLength(limit: builder.rowLengthLimit, at: location)
        // Parameter 1 is Z_PK; attributes follow from 2, then the to-one columns: NULL until
        // linked, unless a reference to an earlier object was set (`record`).
        // Rows queue in the builder's row stream: a full batch is written on a second thread,
        // and any query of this repository flushes the stream first.
        // (A pointer and a count: the slice `2...parameterCount` trapped for an entity with no
        // column of its own, whose range runs the wrong way round.)
        let attributeValues = UnsafeBufferPointer(start: values.baseAddress! + 2, count: Int(plan.parameterCount) - 1)
        do {
            try builder.rowStream.append(plan.insert, primaryKey: pk, values: attributeValues)
        } catch {
            throw InputError("\(error)", at: location)
        }
        rowsWritten += 1
        if plan.tracksDefinitions {
            plan.primaryKeys.define(pk, at: location)
        }
    }

    /// Where the row with this `Z_PK` was defined (file and line), for rows whose entity tracks it.
    func definition(of pk: Int64, in table: String) -> InputLocation? {
        primaryKeys[table]?.definition(of: pk)
    }

    /// The route of `slot`'s references by key, decided at its first (`KeyResolver.route`).
    func keyRoute(_ plan: EntityPlan, _ slot: EntityPlan.ToOneSlot, at location: InputLocation) throws(InputError) -> KeyRoute {
        if case .undecided = slot.keyRoute {
            slot.keyRoute = try keys.route(of: slot, in: plan, destination: { () throws(InputError) in
                try self.plan(for: slot.relationship.destinationEntity, at: location)
            }, at: location)
        }
        return slot.keyRoute
    }
}
