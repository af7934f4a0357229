import SeedModel
import SeedStore

/// References by natural key of simple to-ones: the ledger of each, the key a reference gives,
/// and where it goes (into the new row, or the store's ledger).
extension KeyResolver {
    /// The route of `slot`'s references by key: a ledger when it is a simple to-one to a keyed
    /// entity (`destination` gives that entity's plan), otherwise the general path.
    func route(of slot: EntityPlan.ToOneSlot, in plan: EntityPlan, destination: () throws(InputError) -> EntityPlan,
               at location: InputLocation) throws(InputError) -> KeyRoute {
        guard isSimpleToOne(slot.relationship) else { return .general }
        let destination = try destination()
        guard let key = destination.key, destination.keySlots.count == key.names.count, let keys = destination.objectKeys else { return .general }
        let references = ObjectRows.KeyReferences(
            number: ledgers.count, sourceTable: plan.table, columns: slot.columns,
            destinationTable: destination.table, keyColumns: destination.keySlots.map(\.column),
            destinations: destination.layout.subtreeNumbers)
        let statement = try builder.rows(at: location) { rows throws(SQLiteError) in try rows.referenceStatement(for: references) }
        let ledger = KeyReferenceLedger(references: references, statement: statement, entity: plan.entity.name,
                                        relationship: slot.relationship.name, destination: destination, key: key, keys: keys)
        ledgers.append(ledger)
        return .ledger(ledger)
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
        if case .setInRow = ledger.newRows {
            while referenceKeys.count <= index { referenceKeys.append(KeyBytes()) }
            referenceKeys[index].set(values, at: ledger.keyParameters)
        }
    }

    /// Records that the object with `primaryKey` names by `text` (prepared as reference `index`) the destination of
    /// `ledger`'s to-one: for a new row of `plan` (`slot`, its column, given before the row is
    /// written) straight into the row when the ledger sets rows, otherwise in the ledger.
    func record(_ text: String, _ index: Int, of primaryKey: Int64, in ledger: KeyReferenceLedger,
                settingRow slot: EntityPlan.ToOneSlot?, of plan: EntityPlan, at location: InputLocation) throws(InputError) {
        if let slot, case .setInRow(let keys) = ledger.newRows {
            plan.values[Int(slot.parameter)] = .integer(try reservedOrWritten(text, referenceKeys[index], in: keys, for: ledger, at: location))
            return
        }
        let values = ledger.values
        values[0] = .integer(Int64(fileNumber(location.file)))
        values[1] = .integer(Int64(location.line))
        values[2] = .integer(Int64(location.column))
        values[3] = .text(text)
        do {
            try builder.rowStream.append(ledger.statement, primaryKey: primaryKey, values: UnsafeBufferPointer(values))
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

    /// The `Z_PK` a reference by key names for `ledger`'s to-one: the object's, or the one
    /// reserved for it at the key's first sight.
    private func reservedOrWritten(_ text: String, _ key: KeyBytes, in keys: WholeKeys, for ledger: KeyReferenceLedger,
                                   at location: InputLocation) throws(InputError) -> Int64 {
        guard let found = keys.table.find(key) else {
            let primaryKey = ledger.destinationPrimaryKeys.next()
            let reservation = KeyTable.Reservation(location: location, via: "\(ledger.entity).\(ledger.relationship)", destination: ledger.destinationNumber)
            keys.table.add(key, primaryKey: primaryKey, reservation: reservation)
            return primaryKey
        }
        if !found.isReserved {
            guard ledger.references.destinations.contains(found.entityNumber) else {
                throw InputError("\(ledger.entity).\(ledger.relationship): '\(text)' names a \(entityName(found.entityNumber)), not a \(ledger.destination)", at: location)
            }
            return found.primaryKey
        }
        guard keys.table.reservedDestination(found) != ledger.destinationNumber else { return found.primaryKey }
        let reservation = keys.table.reservation(found)
        if layout.entity(number: reservation.destination)?.subtreeNumbers.contains(ledger.destinationNumber) == true {
            keys.table.narrow(found, to: ledger.destinationNumber)
        } else if !ledger.references.destinations.contains(reservation.destination) {
            throw InputError("\(ledger.entity).\(ledger.relationship): '\(text)' names a \(ledger.destination), but \(reservation.via) names it as a \(entityName(reservation.destination)) (at \(reservation.location))", at: location)
        }
        return found.primaryKey
    }

    /// The name of the entity with this `Z_ENT` (for messages).
    func entityName(_ number: Int) -> String {
        layout.entity(number: number)?.name ?? "#\(number)"
    }
}
