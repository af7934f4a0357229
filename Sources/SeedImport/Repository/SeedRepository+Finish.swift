import SeedModel
import SeedStore

/// The end of a build: references still open, keys settled, defaults and the model's required
/// values and counts checked, then the store made with its indexes (uniqueness checked).
extension SeedRepository {
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
        try keys.settleReservations()
        try keys.resolveReferences(checkingConflicts: merged)
        // The keys are not needed to finish: their memory goes back before the store is copied
        // and its indexes built (the build's peak would be both).
        keys.release()
        for plan in plans.values {
            plan.objectKeys = nil
            for slot in plan.toOnes.values { slot.keyRoute = .undecided }
        }
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
                try builder.rows(at: origin) { rows throws(SQLiteError) in
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
            if let found = try builder.rows(at: origin, { rows throws(SQLiteError) in
                try rows.firstRow(in: plan.table, ofEntity: number, whereAnyNull: required.map(\.column))
            }) {
                throw InputError("\(plan.entity.name) #\(found.primaryKey): \(required[found.column].message)", at: definition(of: found.primaryKey, in: plan.table) ?? origin)
            }
            if plan.wroteUncheckedComposite {
                for requirement in plan.compositeRequirements {
                    if let found = try builder.rows(at: origin, { rows throws(SQLiteError) in
                        try rows.firstPartialRow(in: plan.table, ofEntity: number, given: requirement.members.map(\.column), required: requirement.required.map(\.column))
                    }) {
                        let message = EntityPlan.incompleteMessage(plan.entity.name, requirement, given: requirement.members[found.given], missing: requirement.required[found.missing])
                        throw InputError("\(plan.entity.name) #\(found.primaryKey): \(message)", at: definition(of: found.primaryKey, in: plan.table) ?? origin)
                    }
                }
            }
            for relationship in plan.relationships.values.sorted(by: { $0.name < $1.name }) where relationship.isToMany {
                try checkCount(of: relationship, plan)
            }
        }
        // The store is made from the complete rows, its indexes last: a uniqueness constraint the
        // rows break is found there, and named while the rows' places are still known.
        try completeStore()
        // Nor is where rows were defined, once checked.
        plans.removeAll()
        lastPlan = nil
        lastOwnerSlot = nil
        primaryKeys.removeAll()
    }

    /// The store with its indexes (`StoreBuilder.completeStore`); a uniqueness constraint the
    /// rows break is an error at the later of the first two rows that clash, naming both and
    /// the values they share.
    private func completeStore() throws(InputError) {
        do {
            try builder.completeStore()
        } catch let error where error.code.primary == .constraint {
            let origin = InputLocation(file: model.source, line: 0, column: 0)
            guard let sql = error.sql, let clash = try builder.rows(at: origin, { rows throws(SQLiteError) in try rows.firstUniqueClash(of: sql) }),
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
        guard let found = try builder.rows(at: origin, { rows throws(SQLiteError) in
            try rows.firstCountViolation(of: relationship, from: plan.entity.name)
        }) else { return }
        let bounds = relationship.maxCount > 0 ? "\(relationship.minCount)...\(relationship.maxCount)" : "at least \(relationship.minCount)"
        let location = definition(of: found.primaryKey, in: plan.table) ?? origin
        throw InputError("\(plan.entity.name) #\(found.primaryKey): \(relationship.name) has \(found.count) object(s); the model allows \(bounds) (minCount/maxCount)", at: location)
    }
}
