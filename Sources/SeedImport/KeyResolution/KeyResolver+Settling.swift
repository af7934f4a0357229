import SeedModel
import SeedStore

/// The end of a build's key resolution: reservations no object took, rows pointed at the
/// objects a merge gave a reserved key, and every reference recorded in the ledgers set.
extension KeyResolver {
    /// Ends the reservations: a key references named that no object took is the first error (in
    /// input order); rows naming a reserved `Z_PK` whose key a merge gave to an earlier object
    /// are pointed at it.
    func settleReservations() throws(InputError) {
        // The first dangling key in input order (files, lines, columns; then the table and the
        // key's place in it, for references at one place).
        var dangling: (order: (Int, Int, Int, Int, Int), keys: WholeKeys, offset: Int, reservation: KeyTable.Reservation)?
        for (number, name) in directories.keys.sorted().enumerated() {
            guard case .whole(let keys)? = directories[name] else { continue }
            keys.table.forEachReservation { offset, reservation in
                let order = (fileNumber(reservation.location.file), reservation.location.line, reservation.location.column, number, offset)
                if let earlier = dangling, earlier.order <= order { return }
                dangling = (order, keys, offset, reservation)
            }
        }
        if let (_, keys, offset, reservation) = dangling {
            throw InputError("\(reservation.via): no \(entityName(reservation.destination)) has the key '\(keys.referenceText(at: offset))'",
                             at: reservation.location)
        }
        for ledger in ledgers {
            guard case .whole(let keys) = ledger.destinationKeys, !keys.moved.isEmpty else { continue }
            let references = ledger.references
            try builder.rows(at: InputLocation(file: model.source, line: 0, column: 0)) { rows throws(SQLiteError) in
                for (from, to) in keys.moved {
                    try rows.replaceDestination(in: references.sourceTable, column: references.columns.key, from: from, to: to)
                }
            }
        }
    }

    /// Sets every reference recorded in the ledgers, relationship by relationship; the first
    /// that names no object, or names another object than its source holds (compared when
    /// `checkingConflicts`: some object was merged), is the error.
    func resolveReferences(checkingConflicts: Bool) throws(InputError) {
        for ledger in ledgers {
            let origin = InputLocation(file: model.source, line: 0, column: 0)
            guard let problem = try builder.rows(at: origin, { rows throws(SQLiteError) in
                try rows.resolveKeyReferences(ledger.references, checkConflicts: checkingConflicts)
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
    }
}
