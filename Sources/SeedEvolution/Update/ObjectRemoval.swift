import SeedModel
import SeedStore

/// What the removal did, for the report (`UpdateReportBuilder.report`): each list named before
/// the rows went.
struct RemovedObjects {
    /// The objects the new seed no longer holds that the user changed: kept.
    var keptChangedByUser: [SeedUpdateReport.Object] = []
    /// Those deleted, by entity and key.
    var removed: [SeedUpdateReport.Object] = []
    /// Those kept because something of the user's points at them.
    var keptLinked: [SeedUpdateReport.Object] = []
}

/// The removal of the recorded objects the new seed no longer holds (`UpdatePhase.remove`).
struct ObjectRemoval: UpdateConcept {
    let context: UpdateContext
}

extension ObjectRemoval {
    /// Deletes the recorded objects the new seed no longer holds, unless the user changed them
    /// or something other than the seed's own objects points at them (a user's object, one the
    /// user changed, or one kept for that reason): those stay, and leave the record (they are
    /// the user's now).
    func remove() throws -> RemovedObjects {
        var removal = RemovedObjects()
        // The recorded objects still in the store that the new seed no longer holds, found once
        // (a scan of the state with a lookup per object; it took a second a million objects,
        // and was made three times): those the user changed are reported and kept.
        try database.execute("""
            CREATE TEMP TABLE \(Scratch.noLongerSeeded) AS SELECT s.ENTITY, s.PK, s.KEY, s.CURRENT_DIGEST IS NOT s.SEEDED_DIGEST AS CHANGED
            FROM temp.\(Scratch.recorded) s WHERE s.CURRENT_DIGEST IS NOT NULL
              AND NOT EXISTS (SELECT 1 FROM temp.\(Scratch.newObjects) m WHERE m.ENTITY = s.ENTITY AND m.KEY = s.KEY)
            """)
        for row in try database.rows("SELECT ENTITY, KEY, PK FROM temp.\(Scratch.noLongerSeeded) WHERE CHANGED ORDER BY ENTITY, KEY") {
            guard let entity = store.entity(number: Int(row[0].integer ?? 0)) else { continue }
            removal.keptChangedByUser.append(try object(entity, key: row[1].text ?? "", row: row[2].integer))
        }
        try database.execute("""
            CREATE TEMP TABLE \(Scratch.toRemove) AS SELECT ENTITY, PK, KEY FROM temp.\(Scratch.noLongerSeeded) WHERE NOT CHANGED;
            CREATE INDEX temp.seedgen_to_remove_by_row ON \(Scratch.toRemove) (PK, ENTITY);
            CREATE TEMP TABLE \(Scratch.keptLinked) AS SELECT * FROM temp.\(Scratch.toRemove) WHERE 0;
            """)
        // Kept: what a row outside the set points at, then what a kept one points at, until
        // nothing changes; the rest (one-to-ones between them included) goes together.
        var keeping = true
        while keeping {
            keeping = false
            for row in try database.rows("SELECT ENTITY, PK FROM temp.\(Scratch.toRemove) ORDER BY ENTITY, PK") {
                guard let entity = store.entity(number: Int(row[0].integer ?? 0)), let pk = row[1].integer else { continue }
                if try isPointedAt(entity, pk) {
                    try database.run("INSERT INTO temp.\(Scratch.keptLinked) SELECT * FROM temp.\(Scratch.toRemove) WHERE ENTITY = ? AND PK = ?", [row[0], row[1]])
                    try database.run("DELETE FROM temp.\(Scratch.toRemove) WHERE ENTITY = ? AND PK = ?", [row[0], row[1]])
                    keeping = true
                }
            }
        }
        var removed: [(EntityLayout, String, SeedUpdateReport.Object)] = []
        for row in try database.rows("SELECT ENTITY, PK, KEY FROM temp.\(Scratch.toRemove) ORDER BY ENTITY, PK") {
            guard let entity = store.entity(number: Int(row[0].integer ?? 0)), let pk = row[1].integer else { continue }
            // Named before its row goes (by its values, when the record names it by their digest).
            let named = try object(entity, key: row[2].text ?? "", row: pk)
            try database.run("DELETE FROM main.\(table(entity)) WHERE Z_PK = ?", [.integer(pk)])
            for (join, side) in joinSides(of: entity) {
                try database.run("DELETE FROM main.\(Database.quote(join.name)) WHERE \(Database.quote(side)) = ?", [.integer(pk)])
            }
            try database.run("DELETE FROM main.\(SeedRecord.table) WHERE ENTITY = ? AND PK = ?", [row[0], row[1]])
            removed.append((entity, row[2].text ?? "", named))
        }
        removal.removed = removed.sorted { ($0.0.name, $0.1) < ($1.0.name, $1.1) }.map(\.2)
        for row in try database.rows("SELECT ENTITY, KEY, PK FROM temp.\(Scratch.keptLinked) ORDER BY ENTITY, KEY") {
            guard let entity = store.entity(number: Int(row[0].integer ?? 0)) else { continue }
            removal.keptLinked.append(try object(entity, key: row[1].text ?? "", row: row[2].integer))
        }
        // What the new seed removes and the store keeps is the user's from now on.
        try database.execute("""
            DELETE FROM main.\(SeedRecord.table) WHERE (ENTITY, PK) IN (SELECT ENTITY, PK FROM temp.\(Scratch.noLongerSeeded));
            DROP TABLE temp.\(Scratch.noLongerSeeded); DROP TABLE temp.\(Scratch.toRemove); DROP TABLE temp.\(Scratch.keptLinked);
            """)
        return removal
    }

    /// True when a row outside `seedgen_to_remove` points at the object with a to-one (the seed's
    /// own objects that pointed at it were changed by now: what still does is the user's, or
    /// the user changed it, and deleting would leave it pointing at nothing), or a user's own
    /// object (one the record does not hold) links it in a many-to-many. A link between seed
    /// objects is the seed's: it goes with the object.
    private func isPointedAt(_ entity: EntityLayout, _ pk: Int64) throws -> Bool {
        for table in store.tables {
            for column in table.columns {
                guard let destination = column.referencedEntity, let target = store.entity(named: destination),
                      target.subtreeNumbers.contains(entity.number) else { continue }
                if try database.scalar("""
                    SELECT 1 FROM main.\(Database.quote(table.name)) x WHERE x.\(Database.quote(column.name)) = ?
                      AND NOT EXISTS (SELECT 1 FROM temp.\(Scratch.toRemove) g WHERE g.PK = x.Z_PK AND g.ENTITY = x.Z_ENT) LIMIT 1
                    """, [.integer(pk)]) != nil {
                    return true
                }
            }
        }
        for (join, side) in joinSides(of: entity) {
            let other = side == join.firstColumn ? join.secondColumn : join.firstColumn
            if try database.scalar("""
                SELECT 1 FROM main.\(Database.quote(join.name)) j WHERE j.\(Database.quote(side)) = ?
                  AND NOT EXISTS (SELECT 1 FROM main.\(SeedRecord.table) r WHERE r.PK = j.\(Database.quote(other))
                    AND r.ENTITY IN (\(otherSide(of: join, from: side).subtreeList)))
                LIMIT 1
                """, [.integer(pk)]) != nil {
                return true
            }
        }
        return false
    }

    /// The join tables holding `entity`'s objects, with the column that holds them.
    private func joinSides(of entity: EntityLayout) -> [(JoinTableLayout, String)] {
        store.joinTables.flatMap { join -> [(JoinTableLayout, String)] in
            var sides: [(JoinTableLayout, String)] = []
            if store.entity(named: join.entity)?.subtreeNumbers.contains(entity.number) == true { sides.append((join, join.firstColumn)) }
            if store.entity(named: join.inverseEntity)?.subtreeNumbers.contains(entity.number) == true { sides.append((join, join.secondColumn)) }
            return sides
        }
    }

    private func otherSide(of join: JoinTableLayout, from side: String) -> EntityLayout {
        store.entity(named: side == join.firstColumn ? join.inverseEntity : join.entity)!
    }
}
