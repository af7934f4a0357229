import SeedModel
import SeedStore

/// The new seed's changes: found (`UpdatePhase.markChanges`), then made — its objects inserted,
/// its changes written, its places taken (`.insertAndChange`, `.renumberPositions`).
struct SeedChanges: UpdateConcept {
    let context: UpdateContext
}

extension SeedChanges {
    /// Marks the seeded objects the new seed changes (`changed`), and keeps the rows of
    /// `seedgen_new_objects` the later steps need in `seedgen_touched`.
    func markChanges() throws {
        // Tables whose objects keep their Z_PKs from the new seed to the store: a to-one into one
        // of them is the same number in both.
        let sameNumbers = Set(try database.rows("SELECT TABLE_NUMBER FROM temp.\(Scratch.newObjects) GROUP BY TABLE_NUMBER HAVING MAX(IFNULL(STORE_PK, RECORDED_PK) IS NOT SEED_PK) = 0").compactMap(\.first?.integer))
        var lookedUp: Set<Int> = []
        defer { for table in lookedUp { try? database.execute("DROP TABLE temp.\(Scratch.recordedPKs(ofTable: table))") } }
        for entity in concreteEntities {
            // Compared as this store would hold it: the same digest as the record's means the
            // same row. Where every to-one leads into such a table the new seed's own recorded
            // digest is that digest (no row is hashed again).
            let destinations = carried(entity, alias: "n").compactMap { carried -> Int? in
                guard let destination = store.table(named: entity.table)?.columns.first(where: { $0.name == carried.column })?.referencedEntity else { return nil }
                return store.entity(named: destination).map { tableNumber($0.table) }
            }
            if destinations.allSatisfy({ sameNumbers.contains(Int64($0)) }) {
                try database.execute("""
                    UPDATE temp.\(Scratch.newObjects) SET FATE = \(Fate.changed.sql) WHERE ENTITY = \(entity.number) AND FATE = \(Fate.seeded.sql) AND SEED_DIGEST IS NOT RECORDED_DIGEST
                    """)
            } else {
                let missing = Set(destinations).subtracting(lookedUp)
                try context.makeRecordedNumbers(missing)
                lookedUp.formUnion(missing)
                let recorded = context.recordedDigest(entity, alias: "n")
                try database.execute("""
                    UPDATE temp.\(Scratch.newObjects) SET FATE = \(Fate.changed.sql) WHERE (TABLE_NUMBER, SEED_PK) IN (
                      SELECT m.TABLE_NUMBER, m.SEED_PK FROM temp.\(Scratch.newObjects) m JOIN seed.\(table(entity)) n ON n.Z_PK = m.SEED_PK\(recorded.joins)
                      WHERE m.TABLE_NUMBER = \(tableNumber(entity.table)) AND m.ENTITY = \(entity.number) AND m.FATE = \(Fate.seeded.sql)
                        AND \(recorded.digest) IS NOT m.RECORDED_DIGEST)
                    """)
            }
        }
        try database.execute("""
            CREATE TEMP TABLE \(Scratch.touched) AS SELECT * FROM temp.\(Scratch.newObjects) WHERE FATE <> \(Fate.seeded.sql);
            CREATE INDEX temp.seedgen_touched_by_entity ON \(Scratch.touched) (ENTITY, FATE);
            """)
    }

    /// The entities whose rows the update may write or remove: those of the objects it adds or
    /// changes, and those with recorded objects still in the store that the new seed does not
    /// all hold. After `markChanges`.
    func touchedEntities() throws -> Set<String> {
        var touched = Set(try database.rows("SELECT DISTINCT ENTITY FROM temp.\(Scratch.touched) WHERE FATE IN (\(Fate.add.sql), \(Fate.changed.sql))")
            .compactMap { $0[0].integer.flatMap { store.entity(number: Int($0))?.name } })
        for entity in concreteEntities where !touched.contains(entity.name) {
            let number: [SQLValue] = [.integer(Int64(entity.number))]
            let present = try database.scalar("SELECT COUNT(*) FROM temp.\(Scratch.recorded) WHERE ENTITY = ? AND CURRENT_DIGEST IS NOT NULL", number)
            let held = try database.scalar("SELECT COUNT(*) FROM temp.\(Scratch.newObjects) WHERE ENTITY = ? AND RECORDED_PK IS NOT NULL AND FATE <> \(Fate.deleted.sql)", number)
            if present != held { touched.insert(entity.name) }
        }
        return touched
    }

    /// Inserts the new objects, changes the marked ones, gives the seed's unchanged objects its
    /// places in their lists, and brings the many-to-many links to the new seed's (`updateLinks`).
    func insertAndChange() throws {
        for entity in concreteEntities {
            let carried = carried(entity, alias: "n")
            let columns = (["Z_PK", "Z_ENT", "Z_OPT"] + carried.map(\.column)).map(Database.quote).joined(separator: ", ")
            try database.execute("""
                INSERT INTO main.\(table(entity)) (\(columns))
                SELECT m.STORE_PK, n.Z_ENT, n.Z_OPT\(carried.map { ", " + $0.value }.joined())
                FROM temp.\(Scratch.touched) m JOIN seed.\(table(entity)) n ON n.Z_PK = m.SEED_PK
                WHERE m.ENTITY = \(entity.number) AND m.FATE = \(Fate.add.sql) ORDER BY m.STORE_PK
                """)
        }
        for entity in concreteEntities {
            let carried = carried(entity, alias: "n")
            guard !carried.isEmpty else { continue }
            let update = try database.prepare("""
                UPDATE main.\(table(entity)) SET (\(carried.map { Database.quote($0.column) }.joined(separator: ", "))) =
                  (SELECT \(carried.map(\.value).joined(separator: ", ")) FROM seed.\(table(entity)) n WHERE n.Z_PK = ?2),
                  Z_OPT = Z_OPT + 1
                WHERE Z_PK = ?1
                """)
            for row in try database.rows("SELECT STORE_PK, SEED_PK FROM temp.\(Scratch.touched) WHERE ENTITY = ? AND FATE = \(Fate.changed.sql)", [.integer(Int64(entity.number))]) {
                try update.bind(row)
                try update.run()
            }
        }
        // The seed's own objects it left as they were take its places in their lists.
        for entity in concreteEntities {
            for column in SeedRecord.columns(of: entity, in: store, positions: true) {
                guard case .foreignOrder = column.role else { continue }
                let name = Database.quote(column.name)
                // Only where the place differs: most stay where they were.
                try database.execute("""
                    UPDATE main.\(table(entity)) SET \(name) = (SELECT n.\(name) FROM temp.\(Scratch.newObjects) m JOIN seed.\(table(entity)) n ON n.Z_PK = m.SEED_PK
                      WHERE m.TABLE_NUMBER = \(tableNumber(entity.table)) AND m.STORE_PK = \(table(entity)).Z_PK)
                    WHERE Z_PK IN (SELECT m.STORE_PK FROM temp.\(Scratch.newObjects) m JOIN seed.\(table(entity)) n ON n.Z_PK = m.SEED_PK
                      JOIN main.\(table(entity)) t ON t.Z_PK = m.STORE_PK
                      WHERE m.TABLE_NUMBER = \(tableNumber(entity.table)) AND m.ENTITY = \(entity.number) AND m.FATE = \(Fate.seeded.sql) AND n.\(name) IS NOT t.\(name))
                    """)
            }
        }
    }
}
