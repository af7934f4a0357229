import SeedModel
import SeedStore

extension SeedRepository {
    /// Whether a to-one's references by key take the ledger (`keyReferenceLedger`): its inverse
    /// is nil or an unordered to-many, so setting it touches the source's row only.
    func isSimpleToOne(_ relationship: RelationshipDescription) -> Bool {
        !relationship.isToMany && (model.inverse(of: relationship).map { $0.isToMany && !$0.isOrdered } ?? true)
    }

    /// The keys of the tree that declares `key`, shared by the plans of its entities: kept whole
    /// when a simple to-one whose row holds only the foreign key names those objects.
    func objectKeys(declaring key: NaturalKey) -> ObjectKeys {
        let name = key.declaringEntity.name
        if let known = keyDirectories[name] { return known }
        let named = model.entities.contains { entity in
            model.allRelationships(of: entity).contains { relationship in
                guard !relationship.isTransient, isSimpleToOne(relationship),
                      layout.toOneColumns(for: relationship.name, of: entity.name)?.entity == nil,
                      let destination = model.entity(named: relationship.destinationEntity) else { return false }
                return NaturalKey.of(destination, in: model, buildKeys: options.keys)?.declaringEntity.name == name
            }
        }
        let keys = ObjectKeys(key, whole: named)
        keyDirectories[name] = keys
        return keys
    }

    /// Sets `objectKey` to the key of the object being built; false when it gives no key.
    func setObjectKey(_ plan: EntityPlan) -> Bool {
        guard plan.objectKeys != nil else { return false }
        let parameters = plan.keyParameters
        for parameter in parameters where values[parameter] == nil { return false }
        objectKey.set(values, at: parameters)
        return true
    }

    /// Reads the memory the key lookups of the object being built start with (its key's slot,
    /// and each reference's slot and entry) one right after another. The tables are larger
    /// than the caches at millions of keys, so each lookup waits for memory; read apart, a row
    /// waits once per lookup, read together the waits overlap (the processor runs independent
    /// reads at once) and the lookups then find their memory in cache.
    func touchKeys(_ plan: EntityPlan, hasKey: Bool, _ references: [(slot: EntityPlan.ToOneSlot, key: String)]) {
        var touched: UInt64 = 0
        if hasKey, let keys = plan.objectKeys {
            touched &+= keys.table?.touch(objectKey) ?? keys.index.touch(objectKey.hash)
        }
        for index in references.indices {
            guard case .some(.some(let ledger)) = references[index].slot.keyReferences, ledger.setsRows else { continue }
            touched &+= ledger.destinationKeys.table!.touch(referenceKeys[index])
        }
        self.touched = touched
    }

    /// What the key of the object being built (in `objectKey`, when `hasKey`) finds.
    func keyMatch(_ plan: EntityPlan, hasKey: Bool, at location: InputLocation) throws(InputError) -> KeyMatch {
        guard hasKey, let keys = plan.objectKeys else { return .none }
        let row: ObjectRows.Row
        if let table = keys.table {
            guard let found = table.find(objectKey) else { return .new }
            if found.isReserved { return .reserved(found, table.reservation(found)) }
            row = ObjectRows.Row(primaryKey: found.primaryKey, entityNumber: found.entityNumber)
        } else {
            guard let found = try writtenObject(objectKey, in: keys, plan, at: location) else { return .new }
            row = found
        }
        guard row.entityNumber == plan.layout.number else {
            let other = layout.entity(number: row.entityNumber)!.name
            throw InputError("\(plan.entity.name) \(describeKey(plan)) conflicts with the \(other) of the same key\(firstDefinition(plan.table, row.primaryKey))", at: location)
        }
        return .existing(ObjectReference(entity: plan.entity.name, entityNumber: plan.layout.number, primaryKey: row.primaryKey))
    }

    /// The object of `plan`'s tree written with `key`, when there is one (a reserved key has
    /// none yet). From fingerprints, a candidate is confirmed by reading its row, which happens
    /// for real merges and, for a new key, about once per 2^40 slots compared.
    func writtenObject(_ key: KeyBytes, in keys: ObjectKeys, _ plan: EntityPlan, at location: InputLocation) throws(InputError) -> ObjectRows.Row? {
        if let table = keys.table {
            guard let found = table.find(key), !found.isReserved else { return nil }
            return ObjectRows.Row(primaryKey: found.primaryKey, entityNumber: found.entityNumber)
        }
        var found: ObjectRows.Row?
        let columns = ["Z_ENT"] + plan.keySlots.map(\.column)
        try keys.index.candidates(key.hash) { (candidate) throws(InputError) in
            let stored = try rows(at: location) { rows throws(SQLiteError) in try rows.values(of: candidate, in: plan.table, columns: columns) }
            var storedKey = KeyBytes()
            storedKey.set(stored.dropFirst())
            guard stored.count == columns.count, let number = stored[0].integer, storedKey.bytes == key.bytes else { return false }
            found = ObjectRows.Row(primaryKey: candidate, entityNumber: Int(number))
            return true
        }
        return found
    }

    /// Files the key of a new object, which `keyMatch` found `.new` or `.reserved`.
    func fileKey(of object: ObjectReference, _ match: KeyMatch, _ plan: EntityPlan, at location: InputLocation) throws(InputError) {
        guard let keys = plan.objectKeys else { return }
        switch match {
        case .new:
            if keys.table != nil {
                keys.table!.add(objectKey, primaryKey: object.primaryKey, entityNumber: plan.layout.number)
            } else {
                keys.index.insert(objectKey.hash, primaryKey: object.primaryKey)
            }
        case .reserved(let found, let reservation):
            try checkReserved(reservation, takenBy: plan, at: location)
            keys.table!.write(found, primaryKey: object.primaryKey, entityNumber: plan.layout.number)
        case .none, .existing:
            break
        }
    }

    /// Files the key a merge gave to an object written without it; a key references reserved
    /// before then names this object (`finish` moves them).
    func fileCompletedKey(of object: ObjectReference, _ plan: EntityPlan, at location: InputLocation) throws(InputError) {
        guard let keys = plan.objectKeys, setObjectKey(plan) else { return }
        guard keys.table != nil else {
            keys.index.insert(objectKey.hash, primaryKey: object.primaryKey)
            return
        }
        guard let found = keys.table!.find(objectKey) else {
            keys.table!.add(objectKey, primaryKey: object.primaryKey, entityNumber: plan.layout.number)
            return
        }
        if found.isReserved {
            try checkReserved(keys.table!.reservation(found), takenBy: plan, at: location)
            keys.table!.write(found, primaryKey: object.primaryKey, entityNumber: plan.layout.number)
            keys.moved.append((found.primaryKey, object.primaryKey))
        } else if found.primaryKey != object.primaryKey {
            throw InputError("\(plan.entity.name) \(describeKey(plan)): the key of another \(plan.entity.name)\(firstDefinition(plan.table, found.primaryKey))", at: location)
        }
    }

    /// A reserved key's object must be of the entity its references named (or below it).
    private func checkReserved(_ reservation: KeyTable.Reservation, takenBy plan: EntityPlan, at location: InputLocation) throws(InputError) {
        let named = layout.entity(number: reservation.destination)!
        guard named.subtreeNumbers.contains(plan.layout.number) else {
            throw InputError("\(plan.entity.name) \(describeKey(plan)): \(reservation.via) names it as a \(named.name) (at \(reservation.location))", at: location)
        }
    }

    /// The `Z_PK` a reference by key names for `ledger`'s to-one: the object's, or the one
    /// reserved for it at the key's first sight.
    func reservedOrWritten(_ text: String, _ key: KeyBytes, in ledger: KeyReferenceLedger, at location: InputLocation) throws(InputError) -> Int64 {
        let keys = ledger.destinationKeys
        guard let found = keys.table!.find(key) else {
            let primaryKey = ledger.destinationPrimaryKeys.next()
            let reservation = KeyTable.Reservation(location: location, via: "\(ledger.entity).\(ledger.relationship)", destination: ledger.destinationNumber)
            keys.table!.add(key, primaryKey: primaryKey, reservation: reservation)
            return primaryKey
        }
        if !found.isReserved {
            guard ledger.references.destinations.contains(found.entityNumber) else {
                throw InputError("\(ledger.entity).\(ledger.relationship): '\(text)' names a \(layout.entity(number: found.entityNumber)!.name), not a \(ledger.destination)", at: location)
            }
            return found.primaryKey
        }
        let reservation = keys.table!.reservation(found)
        guard reservation.destination != ledger.destinationNumber else { return found.primaryKey }
        let named = layout.entity(number: reservation.destination)!
        if named.subtreeNumbers.contains(ledger.destinationNumber) {
            keys.table!.narrow(found, to: ledger.destinationNumber)
        } else if !ledger.references.destinations.contains(reservation.destination) {
            throw InputError("\(ledger.entity).\(ledger.relationship): '\(text)' names a \(ledger.destination), but \(reservation.via) names it as a \(named.name) (at \(reservation.location))", at: location)
        }
        return found.primaryKey
    }

    /// Ends the reservations: a key references named that no object took is the first error (in
    /// input order); rows naming a reserved `Z_PK` whose key a merge gave to an earlier object
    /// are pointed at it.
    func settleReservations() throws(InputError) {
        // The first dangling key in input order (files, lines, columns; then the table and the
        // key's place in it, for references at one place).
        var dangling: (order: (Int, Int, Int, Int, Int), keys: ObjectKeys, offset: Int, reservation: KeyTable.Reservation)?
        for (number, name) in keyDirectories.keys.sorted().enumerated() {
            let keys = keyDirectories[name]!
            keys.table?.forEachReservation { offset, reservation in
                let order = (fileNumber(reservation.location.file), reservation.location.line, reservation.location.column, number, offset)
                if let earlier = dangling, earlier.order <= order { return }
                dangling = (order, keys, offset, reservation)
            }
        }
        if let (_, keys, offset, reservation) = dangling {
            throw InputError("\(reservation.via): no \(layout.entity(number: reservation.destination)!.name) has the key '\(keys.referenceText(at: offset))'",
                             at: reservation.location)
        }
        for ledger in keyReferenceOrder where !ledger.destinationKeys.moved.isEmpty {
            let references = ledger.references
            try rows(at: InputLocation(file: model.source, line: 0, column: 0)) { rows throws(SQLiteError) in
                for (from, to) in ledger.destinationKeys.moved {
                    try rows.replaceDestination(in: references.sourceTable, column: references.columns.key, from: from, to: to)
                }
            }
        }
    }
}
