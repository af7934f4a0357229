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
        for name in plans.keys.sorted() where !plans[name]!.entity.isAbstract {
            try plans[name]!.settleRows(in: builder, model: model)
        }
        try checkKeysWithinOwners()
        // The store is made from the complete rows, its indexes last: a uniqueness constraint the
        // rows break is found there, and named while the rows' places are still known.
        try completeStore()
        // Nor is where rows were defined, once checked.
        plans.removeAll()
        lastPlan = nil
        lastOwnerSlot = nil
        primaryKeys.removeAll()
    }

    /// Each key through a to-one (`--key Ingredient=recipe,name`) given once among the objects
    /// of the entity that declares it: two objects of one owner that give the same values are an
    /// error at the later one, naming both, as for a uniqueness constraint.
    private func checkKeysWithinOwners() throws(InputError) {
        let names = ObjectNames(layout: layout, buildKeys: options.keys)
        let origin = InputLocation(file: model.source, line: 0, column: 0)
        for (declaring, spec) in options.keys.sorted(by: { $0.key < $1.key }) {
            guard let entity = model.entity(named: declaring), let key = model.naturalKey(of: entity, buildKeys: options.keys),
                  NaturalKey.isThroughToOne(key, in: model, buildKeys: options.keys) else { continue }
            // Its concrete entities: those whose key it declares (its sub-entities share the key).
            let concrete = layout.entities.filter { placed in
                !placed.isAbstract && model.entity(named: placed.name).flatMap { model.naturalKey(of: $0, buildKeys: options.keys) }?.declaringEntity.name == declaring
            }
            guard let first = concrete.first, let keySQL = names.keySQL(of: first.name, alias: "t") else { continue }
            let clash = try builder.rows(at: origin) { rows throws(SQLiteError) in
                try rows.firstKeyClash(in: first.table, entities: concrete.map(\.number), keySQL: keySQL)
            }
            guard let clash else { continue }
            func described(_ primaryKey: Int64) -> (name: String, place: InputLocation?) {
                let number = try? builder.rows(at: origin) { rows throws(SQLiteError) in try rows.entityNumber(of: primaryKey, in: first.table) }
                let name = number.flatMap { layout.entity(number: $0)?.name } ?? declaring
                return (name, plans[name]?.primaryKeys.definition(of: primaryKey))
            }
            let (earlier, later) = (described(clash.first), described(clash.second))
            let object = names.object(entity: first.name, key: clash.key).keyText
            throw InputError("\(later.name) #\(clash.second) has the key of \(earlier.name) #\(clash.first)\(earlier.place.map { " (defined at \($0))" } ?? ""): \(object); "
                             + "--key \(declaring)=\(spec.joined(separator: ",")) names each object once within its owner", at: later.place ?? origin)
        }
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
            throw plan.uniquenessError(clash, layout: layout, origin: origin)
        } catch {
            throw InputError("\(error)", at: InputLocation(file: model.source, line: 0, column: 0))
        }
    }
}
