import SeedModel
import SeedStore

/// The references by natural key of one simple to-one (whose inverse, if any, is an unordered
/// to-many): recorded with the rows in the store's ledger and set all at once by `finish`, so a
/// keyed, relational import runs no query per row.
final class KeyReferenceLedger {
    let references: ObjectRows.KeyReferences
    let statement: Statement
    let entity: String
    let relationship: String
    let destination: String
    let key: NaturalKey
    let keySlots: [EntityPlan.AttributeSlot]
    /// One recorded row: file, line, column, the key as given, the preset flag, the key's values.
    let values: UnsafeMutableBufferPointer<SQLValue?>

    init(references: ObjectRows.KeyReferences, statement: Statement, entity: String, relationship: String,
         destination: EntityPlan, key: NaturalKey) {
        self.references = references
        self.statement = statement
        self.entity = entity
        self.relationship = relationship
        self.destination = destination.entity.name
        self.key = key
        self.keySlots = destination.keySlots
        values = .allocate(capacity: 5 + key.names.count)
        values.initialize(repeating: nil)
    }

    deinit {
        values.deinitialize()
        values.deallocate()
    }
}

extension SeedRepository {
    /// The ledger of `relationship` of `plan`'s entity, when it is a simple to-one to a keyed
    /// entity; nil for the general path (`link(_:_:toKey:at:)`).
    func keyReferenceLedger(_ plan: EntityPlan, _ relationship: String, at location: InputLocation) throws(InputError) -> KeyReferenceLedger? {
        if let known = plan.keyReferenceLedgers[relationship] { return known }
        var ledger: KeyReferenceLedger?
        if let description = plan.relationships[relationship], !description.isToMany,
           model.inverse(of: description).map({ $0.isToMany && !$0.isOrdered }) ?? true,
           let slot = plan.toOnes[relationship] {
            let destination = try self.plan(for: description.destinationEntity, at: location)
            if let key = destination.key, destination.keySlots.count == key.names.count {
                let references = ObjectRows.KeyReferences(
                    number: keyReferenceOrder.count, sourceTable: plan.table, columns: slot.columns,
                    destinationTable: destination.table, keyColumns: destination.keySlots.map(\.column),
                    destinations: destination.layout.subtreeNumbers)
                let statement = try rows(at: location) { rows throws(SQLiteError) in try rows.referenceStatement(for: references) }
                ledger = KeyReferenceLedger(references: references, statement: statement, entity: plan.entity.name,
                                            relationship: relationship, destination: destination, key: key)
                keyReferenceOrder.append(ledger!)
            }
        }
        plan.keyReferenceLedgers[relationship] = .some(ledger)
        return ledger
    }

    /// Records that `object` names by `text` the destination of `ledger`'s to-one. For a new
    /// row (`plan` given, before the row is written) a destination written before goes straight
    /// into the row when the key index has exactly one candidate for the key; `finish` checks it
    /// by `Z_PK`, so a fingerprint that matches by chance is set right then.
    func record(_ text: String, of object: ObjectReference, in ledger: KeyReferenceLedger, settingRowOf plan: EntityPlan?,
                at location: InputLocation) throws(InputError) {
        guard let texts = ledger.key.values(of: text) else {
            throw InputError("\(ledger.entity).\(ledger.relationship): '\(text)' is not a key of \(ledger.destination), which is \(ledger.key.syntax) (values separated by '|', '\\|' for a '|' in a value)", at: location)
        }
        let values = ledger.values
        for (index, (slot, part)) in zip(ledger.keySlots, texts).enumerated() {
            do {
                values[5 + index] = try slot.converter.convert(part)
            } catch {
                throw InputError("\(ledger.entity).\(ledger.relationship): key of \(ledger.destination): \(slot.attribute.name): \(error)", at: location)
            }
        }
        var preset = false
        if let plan, ledger.references.columns.entity == nil, let slot = plan.toOnes[ledger.relationship] {
            var candidates = 0
            var found: Int64 = 0
            try keyIndexes[ledger.key.declaringEntity.name]?.candidates(Self.keyHash(values[5...].lazy.map { $0! })) { (candidate) throws(InputError) in
                candidates += 1
                found = candidate
                return candidates > 1
            }
            if candidates == 1 {
                self.values[Int(slot.parameter)] = .integer(found)
                preset = true
            }
        }
        values[0] = .integer(Int64(fileNumber(location.file)))
        values[1] = .integer(Int64(location.line))
        values[2] = .integer(Int64(location.column))
        values[3] = .text(text)
        values[4] = .integer(preset ? 1 : 0)
        do {
            try builder.rowStream.append(ledger.statement, primaryKey: object.primaryKey, values: UnsafeBufferPointer(values))
        } catch {
            throw InputError("\(error)", at: location)
        }
    }

    /// Sets every recorded reference, relationship by relationship; the first that names no
    /// object, or names another object than its source holds, is the error.
    func resolveKeyReferences() throws(InputError) {
        for ledger in keyReferenceOrder {
            let origin = InputLocation(file: model.source, line: 0, column: 0)
            guard let problem = try rows(at: origin, { rows throws(SQLiteError) in
                try rows.resolveKeyReferences(ledger.references, checkConflicts: merged)
            }) else { continue }
            let location = InputLocation(file: problem.file < files.count ? files[problem.file] : model.source,
                                         line: problem.line, column: problem.column)
            if let earlier = problem.earlierGiven {
                throw InputError("\(ledger.entity).\(ledger.relationship) of \(ledger.entity) #\(problem.source) is given two different values: the keys '\(earlier)' and '\(problem.given)'", at: location)
            }
            if let holding = problem.holding {
                throw InputError("\(ledger.entity).\(ledger.relationship) of \(ledger.entity) #\(problem.source) is given two different values: \(ledger.destination) #\(holding) and the key '\(problem.given)'", at: location)
            }
            throw InputError("\(ledger.entity).\(ledger.relationship): no \(ledger.destination) has the key '\(problem.given)'", at: location)
        }
        keyReferenceOrder.removeAll()
        for plan in plans.values { plan.keyReferenceLedgers.removeAll() }
    }
}
