import SeedModel

/// Which of a row's columns an entity's recorded digests cover. A record written for the
/// entity's own layout covers its digested columns (`SeedRecord.digestedColumns`), in table
/// order. A migration that renames and adds columns without changing a value keeps the
/// record's digests as they were, with a rule saying how to check them against the migrated
/// rows (`SEEDGEN_DIGESTED`): the columns that took over the digested ones, in the old order,
/// and each added column with the value the migration gave every row. A row is as seeded when
/// the digest of the first equals its recorded digest and every added column holds its value.
/// While an entity has a rule, the recorded names of its objects named by their values may be
/// of other attributes than its own (settling the rule names them again): `named` says which.
package struct DigestRule: Equatable {
    /// An added column and the value a row left as seeded holds in it.
    package struct Fixed: Equatable {
        package var column: String
        package var value: SQLValue

        package init(column: String, value: SQLValue) {
            self.column = column
            self.value = value
        }
    }

    /// The columns the recorded digest covers, in its order.
    package var digested: [String]
    /// The columns it leaves out, each with the value it must hold.
    package var fixed: [Fixed]
    /// The columns, in order, whose values the recorded names of objects named by their values
    /// digest (the attributes of the layout the record was written for, in name order, carried
    /// to these columns), where those are not the entity's own; empty otherwise.
    package var named: [String] = []

    package init(digested: [String], fixed: [Fixed], named: [String] = []) {
        self.digested = digested
        self.fixed = fixed
        self.named = named
    }

    /// Every column the rule names (each digested column of its entity, once).
    var columns: [String] { digested + fixed.map(\.column) }

    /// SQL, with its arguments, that a row `alias` left as seeded gives its recorded digest,
    /// and any other row another value or NULL (an added column holding another value). The
    /// arguments are numbered parameters (`?1`, `?2`, …: the fixed values in order), so the SQL
    /// may appear more than once in a statement that takes no other.
    package func sql(alias: String) -> (sql: String, arguments: [SQLValue]) {
        let digest = Database.rowDigestSQL(digested.map { "\(alias).\(Database.quote($0))" })
        guard !fixed.isEmpty else { return (digest, []) }
        let checks = fixed.enumerated().map { "\(alias).\(Database.quote($1.column)) IS ?\($0 + 1)" }.joined(separator: " AND ")
        return ("CASE WHEN \(checks) THEN \(digest) END", fixed.map(\.value))
    }
}

extension DigestRule {
    /// The rule of a record written for `entity`'s own layout: its digested columns, none fixed.
    package init(of entity: EntityLayout, in layout: StoreLayout) {
        self.init(digested: SeedRecord.digestedColumns(of: entity, in: layout), fixed: [])
    }
}
