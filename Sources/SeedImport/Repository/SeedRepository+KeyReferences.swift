import SeedModel
import SeedStore

extension SeedRepository {
    /// The ledger of a to-one of `plan`'s entity, when it is a simple to-one to a keyed entity;
    /// nil for the general path (`link(_:_:toKey:at:)`). Decided once per plan and to-one.
    func keyReferenceLedger(_ plan: EntityPlan, _ slot: EntityPlan.ToOneSlot, at location: InputLocation) throws(InputError) -> KeyReferenceLedger? {
        if let known = slot.keyReferences { return known }
        var ledger: KeyReferenceLedger?
        let description = slot.relationship
        if isSimpleToOne(description) {
            let destination = try self.plan(for: description.destinationEntity, at: location)
            if let key = destination.key, destination.keySlots.count == key.names.count {
                let references = ObjectRows.KeyReferences(
                    number: keyReferenceOrder.count, sourceTable: plan.table, columns: slot.columns,
                    destinationTable: destination.table, keyColumns: destination.keySlots.map(\.column),
                    destinations: destination.layout.subtreeNumbers)
                let statement = try rows(at: location) { rows throws(SQLiteError) in try rows.referenceStatement(for: references) }
                ledger = KeyReferenceLedger(references: references, statement: statement, entity: plan.entity.name,
                                            relationship: description.name, destination: destination, key: key)
                keyReferenceOrder.append(ledger!)
            }
        }
        slot.keyReferences = .some(ledger)
        return ledger
    }

    /// Converts the key a reference gives into `ledger`'s values, and its bytes into
    /// `referenceKeys[index]` (for the key table).
    func prepare(_ text: String, _ index: Int, in ledger: KeyReferenceLedger, at location: InputLocation) throws(InputError) {
        let values = ledger.values
        if ledger.keySlots.count == 1 {
            values[4] = try convert(text, ledger.keySlots[0], of: ledger, at: location)
        } else {
            guard let texts = ledger.key.values(of: text) else {
                throw InputError("\(ledger.entity).\(ledger.relationship): '\(text)' is not a key of \(ledger.destination), which is \(ledger.key.syntax) (values separated by '|', '\\|' for a '|' in a value)", at: location)
            }
            for (index, (slot, part)) in zip(ledger.keySlots, texts).enumerated() {
                values[4 + index] = try convert(part, slot, of: ledger, at: location)
            }
        }
        if ledger.setsRows {
            while referenceKeys.count <= index { referenceKeys.append(KeyBytes()) }
            referenceKeys[index].set(values, at: ledger.keyParameters)
        }
    }

    /// Records that `object` names by `text` (prepared as reference `index`) the destination of
    /// `ledger`'s to-one: for a new row (`slot`, its column, given before the row is written)
    /// straight into the row when the ledger sets rows, otherwise in the ledger.
    func record(_ text: String, _ index: Int, of object: ObjectReference, in ledger: KeyReferenceLedger,
                settingRow slot: EntityPlan.ToOneSlot?, at location: InputLocation) throws(InputError) {
        if let slot, ledger.setsRows {
            values[Int(slot.parameter)] = .integer(try reservedOrWritten(text, referenceKeys[index], in: ledger, at: location))
            return
        }
        let values = ledger.values
        values[0] = .integer(Int64(fileNumber(location.file)))
        values[1] = .integer(Int64(location.line))
        values[2] = .integer(Int64(location.column))
        values[3] = .text(text)
        do {
            try builder.rowStream.append(ledger.statement, primaryKey: object.primaryKey, values: UnsafeBufferPointer(values))
        } catch {
            throw InputError("\(error)", at: location)
        }
    }

    /// One value of a key a reference gives, converted by the destination's attribute type.
    private func convert(_ text: String, _ slot: EntityPlan.AttributeSlot, of ledger: KeyReferenceLedger, at location: InputLocation) throws(InputError) -> SQLValue {
        do {
            return try slot.converter.convert(text)
        } catch {
            throw InputError("\(ledger.entity).\(ledger.relationship): key of \(ledger.destination): \(slot.attribute.name): \(error)", at: location)
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
        for plan in plans.values {
            for slot in plan.toOnes.values { slot.keyReferences = nil }
        }
    }
}
