import SeedModel

/// What Core Data can read back as the model's values: `Z_PK` a positive integer, each
/// attribute column's values of the storage class its type wants (an integer type's also within
/// its range, a UUID 16 bytes), a to-one's key an integer. `verify` reports what breaks them
/// (`stored-value`), also on stores without seedgen's digest; `dump` and `fetch` refuse such a
/// store instead of printing or dumping a value that would not read back as written.
package enum StoredValueRules {
    /// The values of one column that break its rule.
    package struct Violation: Sendable {
        /// `ZITEM.ZN (Item.n)`.
        package var place: String
        /// What the rule wants, e.g. `Integer 32 values (integers within -2147483648...2147483647)`.
        package var expected: String
        /// How many rows break it.
        package var count: Int64
        /// The first (by `Z_PK`) row that does, and its value.
        package var firstPrimaryKey: SQLValue
        package var firstValue: SQLValue

        /// A value for one line of output, with its storage class.
        static func shown(_ value: SQLValue) -> String {
            switch value {
            case .text: "\(value.excerpt) (text)"
            case .blob: "\(value.excerpt) (blob)"
            case .integer: "\(value.excerpt) (integer)"
            case .real: "\(value.excerpt) (real)"
            case .null: "NULL"
            }
        }
    }

    /// One column's rule: a condition true for a row that breaks it.
    struct Rule {
        var column: String
        var place: String
        var violation: String
        var expected: String
    }

    /// The rules of `table`'s columns that `present` holds (a store Core Data migrated may lack some).
    static func rules(for table: TableLayout, present: Set<String>) -> [Rule] {
        var rules = [Rule(column: "Z_PK", place: "\(table.name).Z_PK", violation: "typeof(Z_PK) != 'integer' OR Z_PK < 1",
                          expected: "positive integers")]
        for column in table.columns where present.contains(column.name) {
            let name = Database.quote(column.name)
            func rule(_ label: String, _ classes: [String], _ expected: String, or extra: String? = nil) {
                let classList = classes.map { "'\($0)'" }.joined(separator: ", ")
                let violation = "\(name) IS NOT NULL AND (typeof(\(name)) NOT IN (\(classList))\(extra.map { " OR \($0)" } ?? ""))"
                rules.append(Rule(column: column.name, place: "\(table.name).\(column.name) (\(label))", violation: violation, expected: expected))
            }
            switch column.role {
            case .attribute(let entity, let attribute, let type):
                let label = "\(entity).\(attribute)"
                switch type {
                case .string, .uri: rule(label, ["text"], "\(type.rawValue) values (text)")
                case .integer16, .integer32, .integer64:
                    let bits = type == .integer16 ? 16 : type == .integer32 ? 32 : 64
                    let range = bits == 64 ? nil : "\(name) NOT BETWEEN \(-(Int64(1) << (bits - 1))) AND \((Int64(1) << (bits - 1)) - 1)"
                    rule(label, ["integer"], "\(type.rawValue) values (integers\(bits == 64 ? "" : " within \(-(Int64(1) << (bits - 1)))...\((Int64(1) << (bits - 1)) - 1)"))", or: range)
                case .boolean: rule(label, ["integer"], "Boolean values (integers)")
                case .double, .float, .decimal, .date: rule(label, ["real", "integer"], "\(type.rawValue) values (numbers)")
                case .binary, .transformable: rule(label, ["blob"], "\(type.rawValue) values (blobs)")
                case .uuid: rule(label, ["blob"], "UUID values (16-byte blobs)", or: "length(\(name)) != 16")
                case .objectID, .composite, .undefined: break
                }
            case .foreignKey(let entity, let relationship, _), .foreignEntity(let entity, let relationship), .foreignOrder(let entity, let relationship),
                 .ownerKey(_, let entity, let relationship):
                rule("\(entity).\(relationship)", ["integer"], "integers")
            }
        }
        return rules
    }

    /// Every rule of `table` that some row breaks: one pass over the table counts them all, then
    /// one query per broken rule finds its first row.
    static func violations(in table: TableLayout, database: Database) throws(SQLiteError) -> [Violation] {
        let present = Set(try database.rows("SELECT name FROM pragma_table_info(?)", [.text(table.name)]).compactMap { $0[0].text })
        let rules = rules(for: table, present: present)
        let quotedTable = Database.quote(table.name)
        guard let counts = try database.rows("SELECT \(rules.map { "COALESCE(SUM(\($0.violation)), 0)" }.joined(separator: ", ")) FROM \(quotedTable)").first else { return [] }
        var violations: [Violation] = []
        for (rule, count) in zip(rules, counts) {
            guard let count = count.integer, count > 0 else { continue }
            let first = try database.rows("SELECT Z_PK, \(Database.quote(rule.column)) FROM \(quotedTable) WHERE \(rule.violation) ORDER BY Z_PK LIMIT 1").first
            violations.append(Violation(place: rule.place, expected: rule.expected, count: count,
                                        firstPrimaryKey: first?[0] ?? .null, firstValue: first?[1] ?? .null))
        }
        return violations
    }
}
