import SeedModel
import SeedStore

/// Owns natural-key resolution for one build: which object has which key (one `ObjectKeys` per
/// key-declaring entity tree), what the key of the object being built finds (`match`), keys
/// named before their object (reserved `Z_PK`s), and the references by key of simple to-ones
/// (`KeyReferenceLedger`s, `+References`), settled at the end (`+Settling`). The repository
/// asks; nothing here calls back into it.
final class KeyResolver {
    let builder: StoreBuilder
    let layout: StoreLayout
    /// The build's own keys (`--key`), beside the model's uniqueness constraints.
    let buildKeys: [String: [String]]
    /// Which object has which natural key, per key-declaring entity.
    var directories: [String: ObjectKeys] = [:]
    /// The key of the object being built, and of each reference being recorded (reused buffers).
    @exclusivity(unchecked) var objectKey = KeyBytes()
    @exclusivity(unchecked) var referenceKeys: [KeyBytes] = []
    /// What `touch` read (kept, so the reads are made).
    @exclusivity(unchecked) private var touched: UInt64 = 0
    /// The ledgers of references by key of simple to-ones, in the order they were made (each
    /// to-one knows its own: `EntityPlan.ToOneSlot.keyRoute`).
    var ledgers: [KeyReferenceLedger] = []
    /// The input files by number, as the store's ledger of references names them.
    var files = NameNumbers()
    /// Where the last file was found (objects of one file come in a row).
    @exclusivity(unchecked) private var lastFile: (path: String, number: Int)?

    var model: DataModel { layout.model }

    init(builder: StoreBuilder, buildKeys: [String: [String]]) {
        self.builder = builder
        self.layout = builder.layout
        self.buildKeys = buildKeys
    }

    /// Whether a to-one's references by key can take a ledger: its inverse is nil or an
    /// unordered to-many, so setting it touches the source's row only.
    func isSimpleToOne(_ relationship: RelationshipDescription) -> Bool {
        !relationship.isToMany && (model.inverse(of: relationship).map { $0.isToMany && !$0.isOrdered } ?? true)
    }

    /// The keys of the tree that declares `key`, shared by the plans of its entities: kept whole
    /// when a simple to-one whose row holds only the foreign key names those objects.
    func objectKeys(declaring key: NaturalKey) -> ObjectKeys {
        let name = key.declaringEntity.name
        if let known = directories[name] { return known }
        let named = model.entities.contains { entity in
            model.allRelationships(of: entity).contains { relationship in
                guard !relationship.isTransient, isSimpleToOne(relationship),
                      layout.toOneColumns(for: relationship.name, of: entity.name)?.entity == nil,
                      let destination = model.entity(named: relationship.destinationEntity) else { return false }
                return NaturalKey.of(destination, in: model, buildKeys: buildKeys)?.declaringEntity.name == name
            }
        }
        let keys: ObjectKeys = named ? .whole(WholeKeys(key)) : .fingerprints(KeyIndex())
        directories[name] = keys
        return keys
    }

    /// Sets `objectKey` to the key of the object being built; false when it gives no key.
    func setObjectKey(_ plan: EntityPlan) -> Bool {
        guard plan.objectKeys != nil else { return false }
        let parameters = plan.keyParameters
        for parameter in parameters where plan.values[parameter] == nil { return false }
        objectKey.set(plan.values, at: parameters)
        return true
    }

    /// Reads the memory the key lookups of the object being built start with (its key's slot,
    /// and each reference's slot and entry) one right after another. The tables are larger
    /// than the caches at millions of keys, so each lookup waits for memory; read apart, a row
    /// waits once per lookup, read together the waits overlap (the processor runs independent
    /// reads at once) and the lookups then find their memory in cache.
    func touch(_ plan: EntityPlan, hasKey: Bool, _ references: [(slot: EntityPlan.ToOneSlot, key: String, line: Int, column: Int)]) {
        var touched: UInt64 = 0
        if hasKey {
            switch plan.objectKeys {
            case .whole(let keys)?: touched &+= keys.table.touch(objectKey)
            case .fingerprints(let index)?: if !index.isAscending { touched &+= index.touch(objectKey.hash) }
            case nil: break
            }
        }
        for index in references.indices {
            guard case .ledger(let ledger) = references[index].slot.keyRoute, case .setInRow(let keys) = ledger.newRows else { continue }
            touched &+= keys.table.touch(referenceKeys[index])
        }
        self.touched = touched
    }

    /// What the key of the object being built (in `objectKey`, when `hasKey`) finds.
    func match(_ plan: EntityPlan, hasKey: Bool, at location: InputLocation) throws(InputError) -> KeyMatch {
        guard hasKey, let keys = plan.objectKeys else { return .none }
        let row: ObjectRows.Row
        switch keys {
        case .whole(let whole):
            guard let found = whole.table.find(objectKey) else { return .new }
            if found.isReserved { return .reserved(found, whole.table.reservation(found)) }
            row = ObjectRows.Row(primaryKey: found.primaryKey, entityNumber: found.entityNumber)
        case .fingerprints(let index):
            // A key above the ascending run is nobody's: no lookup.
            guard !index.isAboveRun(objectKey), let found = try writtenObject(objectKey, in: index, plan, at: location) else { return .new }
            row = found
        }
        guard row.entityNumber == plan.layout.number else {
            let other = layout.entity(number: row.entityNumber)?.name ?? "#\(row.entityNumber)"
            throw InputError("\(plan.entity.name) \(plan.describeKey()) conflicts with the \(other) of the same key\(plan.firstDefinition(of: row.primaryKey))", at: location)
        }
        return .existing(primaryKey: row.primaryKey)
    }

    /// The object of `plan`'s tree written with `key`, when there is one (a reserved key has
    /// none yet; an entity without a key has none).
    func writtenObject(_ key: KeyBytes, of plan: EntityPlan, at location: InputLocation) throws(InputError) -> ObjectRows.Row? {
        switch plan.objectKeys {
        case .whole(let whole)?:
            guard let found = whole.table.find(key), !found.isReserved else { return nil }
            return ObjectRows.Row(primaryKey: found.primaryKey, entityNumber: found.entityNumber)
        case .fingerprints(let index)?:
            guard !index.isAboveRun(key) else { return nil }
            return try writtenObject(key, in: index, plan, at: location)
        case nil:
            return nil
        }
    }

    /// From fingerprints, a candidate is confirmed by reading its row, which happens for real
    /// merges and, for a new key, about once per 2^40 slots compared.
    private func writtenObject(_ key: KeyBytes, in index: KeyIndex, _ plan: EntityPlan, at location: InputLocation) throws(InputError) -> ObjectRows.Row? {
        var found: ObjectRows.Row?
        try index.candidates(key.hash) { (candidate) throws(InputError) in
            // Made here, not per object: most keys have no candidate (an array a key took 1%).
            let columns = ["Z_ENT"] + plan.keySlots.map(\.column)
            let stored = try builder.rows(at: location) { rows throws(SQLiteError) in try rows.values(of: candidate, in: plan.table, columns: columns) }
            var storedKey = KeyBytes()
            storedKey.set(stored.dropFirst())
            guard stored.count == columns.count, let number = stored[0].integer, storedKey.bytes == key.bytes else { return false }
            found = ObjectRows.Row(primaryKey: candidate, entityNumber: Int(number))
            return true
        }
        return found
    }

    /// Files the key of a new object of `plan`'s entity, which `match` found `.new` or `.reserved`.
    func file(_ primaryKey: Int64, _ match: KeyMatch, _ plan: EntityPlan, at location: InputLocation) throws(InputError) {
        switch match {
        case .none, .existing:
            return
        case .new:
            switch plan.objectKeys {
            case .whole(let whole)?:
                whole.table.add(objectKey, primaryKey: primaryKey, entityNumber: plan.layout.number)
            case .fingerprints(let index)?:
                // `match` found the key new without a lookup exactly when it is above the run (a
                // lookup ends the run): not compared again.
                if index.isAscending { index.extendRun(with: objectKey, primaryKey: primaryKey) } else { index.insert(objectKey.hash, primaryKey: primaryKey) }
            case nil:
                return
            }
        case .reserved(let found, let reservation):
            guard case .whole(let whole)? = plan.objectKeys else { return }
            try checkReserved(reservation, takenBy: plan, at: location)
            whole.table.write(found, primaryKey: primaryKey, entityNumber: plan.layout.number)
        }
    }

    /// Files the key a merge gave to an object written without it; a key references reserved
    /// before then names this object (`settleReservations` moves them).
    func fileCompletedKey(of primaryKey: Int64, _ plan: EntityPlan, at location: InputLocation) throws(InputError) {
        guard let keys = plan.objectKeys, setObjectKey(plan) else { return }
        switch keys {
        case .fingerprints(let index):
            index.insert(objectKey, primaryKey: primaryKey)
        case .whole(let whole):
            guard let found = whole.table.find(objectKey) else {
                whole.table.add(objectKey, primaryKey: primaryKey, entityNumber: plan.layout.number)
                return
            }
            if found.isReserved {
                try checkReserved(whole.table.reservation(found), takenBy: plan, at: location)
                whole.table.write(found, primaryKey: primaryKey, entityNumber: plan.layout.number)
                whole.moved.append((found.primaryKey, primaryKey))
            } else if found.primaryKey != primaryKey {
                throw InputError("\(plan.entity.name) \(plan.describeKey()): the key of another \(plan.entity.name)\(plan.firstDefinition(of: found.primaryKey))", at: location)
            }
        }
    }

    /// A reserved key's object must be of the entity its references named (or below it).
    private func checkReserved(_ reservation: KeyTable.Reservation, takenBy plan: EntityPlan, at location: InputLocation) throws(InputError) {
        let named = layout.entity(number: reservation.destination)
        guard let named, named.subtreeNumbers.contains(plan.layout.number) else {
            throw InputError("\(plan.entity.name) \(plan.describeKey()): \(reservation.via) names it as a \(named?.name ?? "#\(reservation.destination)") (at \(reservation.location))", at: location)
        }
    }

    /// `the key 'B'` when this `Z_PK` of `plan`'s table is reserved for a key not written yet.
    func reservedKeyText(holding primaryKey: Int64, of plan: EntityPlan) -> String? {
        guard case .whole(let whole)? = plan.objectKeys, let offset = whole.table.reservedKey(holding: primaryKey) else { return nil }
        return "the key '\(whole.referenceText(at: offset))'"
    }

    /// The number of an input file in the store's ledger.
    func fileNumber(_ path: String) -> Int {
        if let lastFile, lastFile.path == path { return lastFile.number }
        let number = files.number(of: path)
        lastFile = (path, number)
        return number
    }

    /// Gives back the keys' memory, once every reference is settled: before the indexes are
    /// built and the store is copied (the build's peak would be both).
    func release() {
        directories.removeAll()
        ledgers.removeAll()
        referenceKeys.removeAll()
    }
}
