import Foundation

extension StoreVerifier.Run {
    /// `Z_ENT` of every row, `Z_MAX`, and every to-one and join-table reference.
    mutating func checkRows(_ layout: StoreLayout, primaryKeys: [StoreFile.PrimaryKeyRow]) throws {
        let maxByNumber = Dictionary(primaryKeys.map { ($0.number, $0.max) }, uniquingKeysWith: { first, _ in first })
        for table in layout.tables where try file.tableExists(table.name) {
            let root = layout.entity(named: table.rootEntity)!
            try checkMaximum(of: table.name, root: root.name, stored: maxByNumber[root.number] ?? 0)
            guard checksRows(of: table.name) else { continue }
            if !entityNumbersCounted.contains(table.name) {
                try checkEntityNumbers(in: table.name, allowed: root.subtreeNumbers, layout: layout)
            }
            // A missing column is a `column` finding already; its values are not read.
            let present = Set(try file.columns(of: table.name).map(\.name))
            if rowsChecked == nil {
                try checkRowVersions(in: table.name)
                try checkExternalBinaryMarkers(table, present: present, layout: layout)
                for violation in try StoredValueRules.violations(in: table, database: database) {
                    findings.append(violation.finding)
                }
            }
            for column in table.columns where present.contains(column.name) {
                if case .ownerKey(let holder, let owner, let relationship) = column.role {
                    let others = layout.entities.contains { $0.table == table.name && $0.name != holder }
                    try checkReferences(table: table.name, column: column.name, label: "\(owner).\(relationship)",
                                        source: others ? layout.entity(named: holder)! : nil, destination: layout.entity(named: owner)!)
                    continue
                }
                guard case .foreignKey(let entity, let relationship, let destination) = column.role else { continue }
                // Rows of other entities than the column's own are left out, where the table has any.
                let owner = layout.entity(named: entity)!
                let others = layout.entities.contains { $0.table == table.name && !owner.subtreeNumbers.contains($0.number) }
                try checkReferences(
                    table: table.name, column: column.name, label: "\(entity).\(relationship)",
                    source: others ? owner : nil, destination: layout.entity(named: destination)!)
                try checkOneToOneInverse(table: table.name, column: column.name, entity: entity, relationship: relationship, layout: layout)
                try checkRequiredLink(table: table.name, column: column.name, entity: entity, relationship: relationship, layout: layout)
            }
        }
        for join in layout.joinTables where try checksRows(of: join.name) && file.tableExists(join.name) {
            let present = Set(try file.columns(of: join.name).map(\.name))
            guard present.contains(join.firstColumn), present.contains(join.secondColumn) else { continue }
            let destination = layout.model.entity(named: join.entity)!.relationship(named: join.relationship)!.destinationEntity
            try checkReferences(table: join.name, column: join.firstColumn, label: "\(join.entity).\(join.relationship)",
                                source: nil, destination: layout.entity(named: join.entity)!)
            try checkReferences(table: join.name, column: join.secondColumn, label: "\(join.entity).\(join.relationship)",
                                source: nil, destination: layout.entity(named: destination)!)
        }
    }

    /// Without a model: each `Z_PRIMARYKEY` root has its table, rows have known entity numbers, `Z_MAX` holds.
    mutating func checkRowsWithoutModel(_ primaryKeys: [StoreFile.PrimaryKeyRow]) throws {
        let tables = StoreFile.tables(for: primaryKeys)
        for root in primaryKeys where root.superNumber == 0 {
            let table = tables[root.number]!
            guard try file.tableExists(table) else {
                report("table", "table \(table)", expected: "the table of entity \(root.name)", found: "missing")
                continue
            }
            let allowed = primaryKeys.filter { tables[$0.number] == table }.map(\.number)
            try checkEntityNumbers(in: table, allowed: allowed, layout: nil)
            try checkMaximum(of: table, root: root.name, stored: root.max)
        }
    }

    private mutating func checkEntityNumbers(in table: String, allowed: [Int], layout: StoreLayout?) throws {
        // One pass that sorts nothing finds whether a row is amiss; only then are the rows
        // grouped by number, for the finding (a million-row table's GROUP BY took a sorter's
        // time and memory on every clean store).
        let abstract = allowed.filter { layout?.entity(number: $0)?.isAbstract ?? false }
        let amiss = "Z_ENT IS NULL" + (allowed.isEmpty ? "" : " OR Z_ENT NOT IN (\(allowed.map(String.init).joined(separator: ", ")))")
            + (abstract.isEmpty ? "" : " OR Z_ENT IN (\(abstract.map(String.init).joined(separator: ", ")))")
        guard try database.scalar("SELECT EXISTS (SELECT 1 FROM \(table) WHERE \(amiss))")?.integer == 1 else { return }
        for row in try database.rows("SELECT Z_ENT, COUNT(*) FROM \(table) GROUP BY Z_ENT ORDER BY Z_ENT") {
            let number = row[0].integer.map(Int.init)
            let count = row[1].integer ?? 0
            guard let number, allowed.contains(number) else {
                report("row-entity", "table \(table)", expected: "Z_ENT in \(allowed.map(String.init).joined(separator: ", "))",
                       found: "\(count) row(s) with Z_ENT \(row[0])")
                continue
            }
            if let entity = layout?.entity(number: number), entity.isAbstract {
                report("row-entity", "table \(table)", expected: "no rows of abstract entity \(entity.name)", found: "\(count) row(s)")
            }
        }
    }

    private mutating func checkMaximum(of table: String, root: String, stored: Int) throws {
        let highest = try database.scalar("SELECT MAX(Z_PK) FROM \(table)")?.integer ?? 0
        if highest > stored {
            report("z-max", "Z_PRIMARYKEY row of \(root)", expected: "Z_MAX >= \(highest), the highest Z_PK in \(table)", found: "Z_MAX \(stored)")
        }
    }

    /// `Z_OPT` counts saves from 1; NULL or less means a writer did not keep it.
    private mutating func checkRowVersions(in table: String) throws {
        let rows = try database.scalar("SELECT COUNT(*) FROM \(table) WHERE Z_OPT IS NULL OR Z_OPT < 1")?.integer ?? 0
        if rows > 0 {
            report("row-version", "table \(table)", expected: "Z_OPT >= 1 on every row", found: "\(rows) row(s) with Z_OPT NULL or below 1")
        }
    }

    /// Both sides of a one-to-one pair point at each other.
    private mutating func checkOneToOneInverse(table: String, column: String, entity: String, relationship: String, layout: StoreLayout) throws {
        let model = layout.model
        guard let description = model.entity(named: entity)?.relationship(named: relationship),
              let inverse = model.inverse(of: description), !inverse.isToMany,
              let destination = layout.entity(named: description.destinationEntity),
              let inverseColumn = layout.column(for: inverse.name, of: description.destinationEntity),
              try file.columns(of: destination.table).contains(where: { $0.name == inverseColumn }) else { return }
        let source = layout.entity(named: entity)!
        let broken = try database.scalar("""
            SELECT COUNT(*) FROM \(table) s JOIN \(destination.table) d ON d.Z_PK = s.\(column)
            WHERE s.Z_ENT IN (\(source.subtreeList)) AND d.\(inverseColumn) IS NOT s.Z_PK
            """)?.integer ?? 0
        if broken > 0 {
            report("inverse", "\(table).\(column) (\(entity).\(relationship))",
                   expected: "the destination's \(inverse.name) pointing back", found: "\(broken) object(s) whose destination points elsewhere")
        }
    }

    /// A required to-one holds a link in every row of its entity (Core Data's validation refuses
    /// to save one without): an object the model requires to have an owner has one.
    private mutating func checkRequiredLink(table: String, column: String, entity: String, relationship: String, layout: StoreLayout) throws {
        guard let description = layout.model.entity(named: entity)?.relationship(named: relationship), !description.isOptional,
              let owner = layout.entity(named: entity) else { return }
        let missing = try database.scalar("SELECT COUNT(*) FROM \(table) WHERE \(column) IS NULL AND Z_ENT IN (\(owner.subtreeList))")?.integer ?? 0
        if missing > 0 {
            report("required", "\(table).\(column) (\(entity).\(relationship))",
                   expected: "a \(description.destinationEntity) in every \(entity) row (the relationship is required)", found: "\(missing) row(s) without one")
        }
    }

    /// Every non-null value of `column` is the `Z_PK` of a row of `destination` (or an entity
    /// below it); with `source`, in that entity's rows only. The destination's keys are listed
    /// once and the column read from its index where it has one (`NOT IN` a list: a lookup into
    /// the destination's table for each row took 0.9 s a million rows, this 0.35 s).
    private mutating func checkReferences(table: String, column: String, label: String,
                                          source: EntityLayout?, destination: EntityLayout) throws {
        guard try file.tableExists(destination.table) else { return }
        let sourceFilter = source.map { " AND s.Z_ENT IN (\($0.subtreeList))" } ?? ""
        // Each value the column holds looked up once, not once a row (read from its index, 0.1 s
        // a million rows against 0.3 s): only when one is missing are the rows read again, to
        // count and name them.
        guard try database.scalar("""
            SELECT 1 FROM (SELECT DISTINCT s.\(column) AS v FROM \(table) s WHERE s.\(column) IS NOT NULL\(sourceFilter))
            WHERE v NOT IN (SELECT d.Z_PK FROM \(destination.table) d WHERE d.Z_ENT IN (\(destination.subtreeList))) LIMIT 1
            """) != nil else { return }
        let dangling = try database.rows("""
            SELECT s.\(column) FROM \(table) s WHERE s.\(column) IS NOT NULL\(sourceFilter)
            AND s.\(column) NOT IN (SELECT d.Z_PK FROM \(destination.table) d WHERE d.Z_ENT IN (\(destination.subtreeList)))
            """).compactMap { $0.first?.integer }
        guard !dangling.isEmpty else { return }
        let examples = Set(dangling).sorted().prefix(5).map(String.init).joined(separator: ", ")
        report("reference", "\(table).\(column) (\(label))", expected: "the Z_PK of a \(destination.name) row",
               found: "\(dangling.count) reference(s) to missing rows (\(examples))")
    }

    /// Every value of a Binary attribute with external storage carries Core Data's marker
    /// (`ExternalBinary`): inline, or a reference to an external file. A reference is a note on a
    /// store Core Data wrote (the files live beside it), a finding in a seed (one file only).
    private mutating func checkExternalBinaryMarkers(_ table: TableLayout, present: Set<String>, layout: StoreLayout) throws {
        for column in table.columns where present.contains(column.name) {
            guard case .attribute(let entity, let name, .binary) = column.role,
                  let attribute = layout.model.entity(named: entity)?.storedAttribute(named: name), attribute.storesExternalBinaryMarker else { continue }
            let value = Database.quote(column.name)
            func literal(_ byte: UInt8) -> String { String(format: "X'%02X'", byte) }
            let external = "(substr(\(value), 1, 1) = \(literal(ExternalBinary.externalMarker)) AND length(\(value)) = 38 AND substr(\(value), 38, 1) = X'00')"
            let marked = "(typeof(\(value)) = 'blob' AND (substr(\(value), 1, 1) = \(literal(ExternalBinary.inlineMarker)) OR \(external)))"
            let table = Database.quote(table.name)
            if let row = try database.rows("SELECT COUNT(*), MIN(Z_PK) FROM \(table) WHERE \(value) IS NOT NULL AND NOT \(marked)").first,
               let count = row[0].integer, count > 0 {
                report("external-binary", "\(entity).\(name) (column \(column.name))",
                       expected: "every value behind Core Data's marker: 0x01 then the bytes, or 0x02, a file's UUID and a NUL",
                       found: "\(count) value(s) without it, the first in the row with Z_PK \(row[1])")
            }
            if let count = try database.scalar("SELECT COUNT(*) FROM \(table) WHERE \(external)")?.integer, count > 0 {
                let folder = "." + URL(fileURLWithPath: file.path).deletingPathExtension().lastPathComponent + "_SUPPORT/_EXTERNAL_DATA"
                report("external-binary", "\(entity).\(name) (column \(column.name))",
                       expected: isSeed ? "every value in the store (a seed is one file)" : "values kept in the store",
                       found: "\(count) value(s) kept in external files (\(folder) beside the store)", note: !isSeed)
            }
        }
    }
}
