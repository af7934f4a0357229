import SeedModel
import SeedStore

extension SeedRepository {
    /// Relates `source` to `target` through `relationship` of the source's entity, and sets
    /// the inverse side too. `position` is the target's 1-based place in an ordered to-many
    /// (nil: after the ones placed so far in this build, from any element or file).
    public func link(_ source: ObjectReference, _ relationship: String, to target: ObjectReference,
                     position: Int? = nil, at location: InputLocation) throws(InputError) {
        let plan = try plan(for: source.entity, at: location)
        guard let description = plan.relationships[relationship] else {
            throw InputError("entity '\(source.entity)' has no relationship '\(relationship)'", at: location)
        }
        let targetEntity = model.entity(named: target.entity)!
        guard let destination = model.entity(named: description.destinationEntity),
              model.entity(targetEntity, isKindOf: destination) else {
            throw InputError("\(source.entity).\(relationship) leads to \(description.destinationEntity), not to \(target.entity)", at: location)
        }
        let inverse = model.inverse(of: description)
        let targetPlan = try self.plan(for: target.entity, at: location)
        if !description.isToMany {
            // A member naming its owner: placed last in the owner's list when that is ordered.
            let ordered = inverse.map { $0.isToMany && $0.isOrdered } ?? false
            try setToOne(source, plan.toOnes[relationship]!, to: target, place: ordered ? { self.nextPlace(in: target, inverse!.name) } : nil, at: location)
            if let inverse, !inverse.isToMany {
                try setToOne(target, targetPlan.toOnes[inverse.name]!, to: source, place: nil, at: location)
            }
        } else if let inverse, !inverse.isToMany {
            try setToOne(target, targetPlan.toOnes[inverse.name]!, to: source,
                         place: description.isOrdered ? { self.nextPlace(in: source, relationship, given: position) } : nil, at: location)
        } else {
            try addJoinRow(source, description, target, position: position, at: location)
        }
    }

    /// Says that the next object committed is nested in `owner`'s `relationship`; call
    /// `linkNested` once it is written. A new object whose row holds the inverse to-one alone
    /// (no position, no destination entity) takes its owner in the row itself: no query, no update.
    func nest(in owner: ObjectReference, _ relationship: String) {
        nestedIn = (owner, relationship)
    }

    /// Relates `owner` to its nested `child` (see `nest(in:_:)`), unless the child's row took it.
    func linkNested(_ child: ObjectReference, in owner: ObjectReference, _ relationship: String, at location: InputLocation) throws(InputError) {
        if ownerLinked {
            ownerLinked = false
            return
        }
        try link(owner, relationship, to: child, at: location)
    }

    /// Puts the owner of a new nested object into its row, when the relationship allows:
    /// a to-many whose inverse is a plain to-one of the object. False when `link` must do it.
    func setOwner(_ nesting: (owner: ObjectReference, relationship: String), of object: ObjectReference, _ plan: EntityPlan,
                  at location: InputLocation) throws(InputError) -> Bool {
        guard let slot = ownerSlot(nesting.owner.entity, nesting.relationship, plan) else { return false }
        let parameter = Int(slot.parameter)
        if case .integer(let existing)? = values[parameter], existing != nesting.owner.primaryKey {
            throw InputError("\(object.entity).\(slot.relationship.name) of \(object) is given two different values: \(describeDestination(existing, of: slot)) and \(nesting.owner)", at: location)
        }
        values[parameter] = .integer(nesting.owner.primaryKey)
        return true
    }

    /// The to-one of `plan`'s entity that holds its owner's `relationship` in the row alone (the
    /// inverse of a to-many, without position or destination entity), if there is one; the last
    /// answer is kept, as nested objects come in runs.
    private func ownerSlot(_ ownerEntity: String, _ relationship: String, _ plan: EntityPlan) -> EntityPlan.ToOneSlot? {
        if let last = lastOwnerSlot, last.entity == ownerEntity, last.relationship == relationship, last.plan === plan { return last.slot }
        var slot: EntityPlan.ToOneSlot?
        if let description = plans[ownerEntity]?.relationships[relationship], description.isToMany,
           let inverse = model.inverse(of: description), !inverse.isToMany,
           let destination = model.entity(named: description.destinationEntity), model.entity(plan.entity, isKindOf: destination),
           let candidate = plan.toOnes[inverse.name], candidate.columns.entity == nil, candidate.columns.order == nil {
            slot = candidate
        }
        lastOwnerSlot = (ownerEntity, relationship, plan, slot)
        return slot
    }

    /// The next 1-based place in `holder`'s ordered to-many `relationship`, counted over the
    /// whole build (`given` takes that place, and later ones follow it).
    func nextPlace(in holder: ObjectReference, _ relationship: String, given: Int? = nil) -> Int64 {
        let list = OrderedList(table: layout.entity(named: holder.entity)!.table, relationship: relationship, holder: holder.primaryKey)
        let last = orderedPlaces[list] ?? 0
        let place = given.map(Int64.init) ?? last + 1
        orderedPlaces[list] = max(place, last)
        return place
    }

    /// The place a deferred reference from `source` reserves now, so that it keeps its order
    /// among the others of `source`'s ordered to-many (nil when `relationship` is not one).
    func reservedPlace(in source: ObjectReference, _ relationship: String) -> Int? {
        guard let description = plans[source.entity]?.relationships[relationship], description.isToMany, description.isOrdered else { return nil }
        return Int(nextPlace(in: source, relationship))
    }

    /// Relates `source` to the object whose natural key is `key`; resolved now when that
    /// object exists, otherwise at `finish` (so references may come before their objects).
    public func link(_ source: ObjectReference, _ relationship: String, toKey key: String, at location: InputLocation) throws(InputError) {
        if let target = try resolve(source, relationship, key: key, at: location) {
            try link(source, relationship, to: target, at: location)
        } else {
            pendingKeys.append(.init(source: source, relationship: relationship, text: key, place: reservedPlace(in: source, relationship), location: location))
        }
    }

    /// The object a key names, or nil when it is not (yet) written.
    private func resolve(_ source: ObjectReference, _ relationship: String, key: String, at location: InputLocation) throws(InputError) -> ObjectReference? {
        let plan = try plan(for: source.entity, at: location)
        guard let description = plan.relationships[relationship] else {
            throw InputError("entity '\(source.entity)' has no relationship '\(relationship)'", at: location)
        }
        let destination = try self.plan(for: description.destinationEntity, at: location)
        guard let constraint = destination.key else {
            throw InputError("\(source.entity).\(relationship) names its \(description.destinationEntity) by key '\(key)', but \(description.destinationEntity) has no natural key: give it one for this build (--key \(description.destinationEntity)=attribute), give the object a seedgen:id, or nest it", at: location)
        }
        guard let texts = constraint.values(of: key) else {
            throw InputError("\(source.entity).\(relationship): '\(key)' is not a key of \(description.destinationEntity), which is \(constraint.syntax) (values separated by '|', '\\|' for a '|' in a value)", at: location)
        }
        var given: [SQLValue] = []
        for (slot, text) in zip(destination.keySlots, texts) {
            do {
                given.append(try slot.converter.convert(text))
            } catch {
                throw InputError("\(source.entity).\(relationship): key of \(description.destinationEntity): \(slot.attribute.name): \(error)", at: location)
            }
        }
        var key = KeyBytes()
        key.set(given)
        guard let row = try writtenObject(key, in: destination.objectKeys!, destination, at: location) else { return nil }
        let (pk, number) = (row.primaryKey, row.entityNumber)
        let found = layout.entity(number: number)!
        guard destination.layout.subtreeNumbers.contains(number) else {
            throw InputError("\(source.entity).\(relationship): '\(key)' names a \(found.name), not a \(description.destinationEntity)", at: location)
        }
        return ObjectReference(entity: found.name, entityNumber: number, primaryKey: pk)
    }

    /// Sets a to-one column, and its position in the target's ordered list when `place` gives
    /// one (asked only for a new link); another object than it already holds is a conflict.
    private func setToOne(_ object: ObjectReference, _ slot: EntityPlan.ToOneSlot, to target: ObjectReference,
                          place: (() -> Int64)?, at location: InputLocation) throws(InputError) {
        let table = layout.entity(named: object.entity)!.table
        let current = try rows(at: location) { rows throws(SQLiteError) in try rows.destination(of: object.primaryKey, in: table, slot.columns) }
        if let existing = current {
            guard existing == target.primaryKey else {
                throw InputError("\(object.entity).\(slot.relationship.name) of \(object) is given two different values: \(describeDestination(existing, of: slot)) and \(target)", at: location)
            }
            return
        }
        let destination = ObjectRows.Row(primaryKey: target.primaryKey, entityNumber: target.entityNumber)
        let position = place?()
        try rows(at: location) { rows throws(SQLiteError) in
            try rows.setToOne(of: object.primaryKey, in: table, slot.columns, to: destination, place: position)
        }
    }

    /// `Group #2`, or `the key 'B'` when that `Z_PK` is reserved for a key not written yet.
    func describeDestination(_ primaryKey: Int64, of slot: EntityPlan.ToOneSlot) -> String {
        let destination = slot.relationship.destinationEntity
        if let keys = plans[destination]?.objectKeys, let table = keys.table, let offset = table.reservedKey(holding: primaryKey) {
            return "the key '\(keys.referenceText(at: offset))'"
        }
        return "\(destination) #\(primaryKey)"
    }

    /// One row of a many-to-many join table, with order columns where either side is ordered.
    private func addJoinRow(_ source: ObjectReference, _ relationship: RelationshipDescription, _ target: ObjectReference,
                            position: Int?, at location: InputLocation) throws(InputError) {
        let (join, sourceIsFirst) = layout.joinTableSide(for: relationship.name, of: source.entity)!
        let (first, second) = sourceIsFirst ? (source, target) : (target, source)
        // Each ordered side places the other object last in its list (a given position, in the source's).
        let inverse = model.inverse(of: relationship)!.name
        let places = join.orderings.map { ordering -> Int64? in
            let holderIsSource = (ordering.holderColumn == join.firstColumn) == sourceIsFirst
            return holderIsSource ? nextPlace(in: source, relationship.name, given: position) : nextPlace(in: target, inverse)
        }
        try rows(at: location) { rows throws(SQLiteError) in
            try rows.addJoinRow(join, first: first.primaryKey, second: second.primaryKey, places: places)
        }
    }

    /// Resolves the references still open, applies defaults to keyed objects and checks
    /// required attributes and to-one relationships. Call once, after the last input.
    public func finish() throws(InputError) {
        try pendingKeys.forEach { (reference) throws(InputError) in
            guard let target = try resolve(reference.source, reference.relationship, key: reference.text, at: reference.location) else {
                let destination = plans[reference.source.entity]!.relationships[reference.relationship]!.destinationEntity
                throw InputError("\(reference.source.entity).\(reference.relationship): no \(destination) has the key '\(reference.text)'", at: reference.location)
            }
            try link(reference.source, reference.relationship, to: target, position: reference.place, at: reference.location)
        }
        pendingKeys.removeAll()
        try resolvePendingIdentifiers()
        try settleReservations()
        try resolveKeyReferences()
        // The keys are not needed to finish: their memory goes back before the indexes are
        // built and the store is copied (the build's peak would be both).
        keyDirectories.removeAll()
        for plan in plans.values { plan.objectKeys = nil }
        // The indexes come after the rows and their references; what is left to do queries by them.
        try createIndexes()
        let origin = InputLocation(file: model.source, line: 0, column: 0)
        for name in plans.keys.sorted() {
            let plan = plans[name]!
            guard !plan.entity.isAbstract else { continue }
            let number = plan.layout.number
            // Objects a later mention may complete (keyed or identified) have their defaults and
            // required attributes settled now (others were when written; none to settle when
            // every row was written with them), with the required to-ones.
            var required: [(column: String, message: String)] = []
            if plan.wroteUnsettledRow {
                let defaults = plan.attributeSlots.compactMap { slot in slot.defaultValue.map { (slot.column, $0) } }
                try rows(at: origin) { rows throws(SQLiteError) in
                    // Attributes given nil stay NULL, unless another mention gave a value.
                    var kept: [(primaryKey: Int64, column: String)] = []
                    for given in plan.keptNulls where try rows.values(of: given.primaryKey, in: plan.table, columns: [given.column]).first == .null {
                        kept.append(given)
                    }
                    try rows.fillNulls(in: plan.table, ofEntity: number, with: defaults)
                    for (primaryKey, column) in kept { try rows.update(primaryKey, in: plan.table, set: [(column, .null)]) }
                }
                for slot in plan.attributeSlots where slot.defaultValue == nil && !slot.attribute.isOptional {
                    required.append((slot.column, "the required attribute '\(slot.attribute.name)' is missing"))
                }
            }
            for slot in plan.toOnes.values.sorted(by: { $0.column < $1.column }) where !slot.relationship.isOptional {
                required.append((slot.column, "the required relationship '\(slot.relationship.name)' is not set"))
            }
            if let found = try rows(at: origin, { rows throws(SQLiteError) in
                try rows.firstRow(in: plan.table, ofEntity: number, whereAnyNull: required.map(\.column))
            }) {
                throw InputError("\(plan.entity.name) #\(found.primaryKey): \(required[found.column].message)", at: definition(of: found.primaryKey, in: plan.table) ?? origin)
            }
            for relationship in plan.relationships.values.sorted(by: { $0.name < $1.name }) where relationship.isToMany {
                try checkCount(of: relationship, plan)
            }
        }
        // Nor is where rows were defined, once checked.
        plans.removeAll()
        lastPlan = nil
        lastOwnerSlot = nil
        primaryKeys.removeAll()
    }

    /// The indexes; a uniqueness constraint the rows break is an error at the later of the
    /// first two rows that clash, naming both and the values they share.
    private func createIndexes() throws(InputError) {
        do {
            try builder.createIndexes()
        } catch let error where error.code.primary == .constraint {
            let origin = InputLocation(file: model.source, line: 0, column: 0)
            guard let sql = error.sql, let clash = try rows(at: origin, { rows throws(SQLiteError) in try rows.firstUniqueClash(of: sql) }),
                  let plan = plans.values.first(where: { $0.table == clash.table }) else {
                throw InputError("\(error)", at: origin)
            }
            let names = Dictionary(plan.attributeSlots.map { ($0.column, $0.attribute.name) } + plan.toOnes.values.map { ($0.column, $0.relationship.name) },
                                   uniquingKeysWith: { first, _ in first })
            let shared = clash.values.map { column, value in "\(names[column] ?? column) \(value.excerpt)" }.joined(separator: ", ")
            let (first, second) = clash.primaryKeys
            // The rows' own entities: a table holds an entity and its sub-entities.
            let (firstEntity, secondEntity) = (layout.entity(number: clash.entityNumbers.first)?.name ?? plan.entity.name,
                                               layout.entity(number: clash.entityNumbers.second)?.name ?? plan.entity.name)
            let firstPlace = definition(of: first, in: plan.table).map { " (defined at \($0))" } ?? ""
            throw InputError("\(secondEntity) #\(second) breaks a uniqueness constraint: it has \(shared), as \(firstEntity) #\(first)\(firstPlace) has",
                             at: definition(of: second, in: plan.table) ?? origin)
        } catch {
            throw InputError("\(error)", at: InputLocation(file: model.source, line: 0, column: 0))
        }
    }

    /// A to-many's `minCount`/`maxCount`, as Core Data validates them on save.
    private func checkCount(of relationship: RelationshipDescription, _ plan: EntityPlan) throws(InputError) {
        let origin = InputLocation(file: model.source, line: relationship.line, column: 0)
        guard let found = try rows(at: origin, { rows throws(SQLiteError) in
            try rows.firstCountViolation(of: relationship, from: plan.entity.name)
        }) else { return }
        let bounds = relationship.maxCount > 0 ? "\(relationship.minCount)...\(relationship.maxCount)" : "at least \(relationship.minCount)"
        let location = definition(of: found.primaryKey, in: plan.table) ?? origin
        throw InputError("\(plan.entity.name) #\(found.primaryKey): \(relationship.name) has \(found.count) object(s); the model allows \(bounds) (minCount/maxCount)", at: location)
    }
}
