import SeedModel

extension UpdateStep {
    /// The many-to-many links: where the store records its seed's links (`SeedRecord.linksTable`),
    /// a link the new seed drops is removed when the record shows the seed made it and both of
    /// its objects stay in the new seed (the user's own links, and links to objects the update
    /// keeps for the user's sake, stay); a link the new seed makes is added unless the record
    /// shows the user removed it. Without that record, the new seed's links are added between
    /// objects it holds as seeded (or adds), and none removed. Either way no link of a user's
    /// object is touched. The record then holds the new seed's links, and the seed's links the
    /// user removed (so a later seed does not bring them back).
    func updateLinks() throws {
        let recorded = try SeedRecord.recordsLinks(in: database)
        if !recorded {
            try database.execute("CREATE TABLE main.\(SeedRecord.linksTable) (JOINTABLE TEXT, A INTEGER, B INTEGER, PRIMARY KEY (JOINTABLE, A, B)) WITHOUT ROWID")
        }
        for join in store.joinTables {
            guard let owner = store.entity(named: join.entity), let member = store.entity(named: join.inverseEntity) else { continue }
            let (first, second, joinTable) = (Database.quote(join.firstColumn), Database.quote(join.secondColumn), Database.quote(join.name))
            // The new seed's links, in the store's numbering, between objects the store holds.
            let mapped = """
                SELECT a.SPK AS A, b.SPK AS B, a.FATE AS AF, b.FATE AS BF\(join.orderColumns.map { ", j." + Database.quote($0) }.joined())
                FROM seed.\(joinTable) j
                JOIN temp.seedgen_map a ON a.TBL = \(tableNumber(owner.table)) AND a.NPK = j.\(first)
                JOIN temp.seedgen_map b ON b.TBL = \(tableNumber(member.table)) AND b.NPK = j.\(second)
                WHERE a.SPK IS NOT NULL AND b.SPK IS NOT NULL
                """
            let columns = ([join.firstColumn, join.secondColumn] + join.orderColumns).map(Database.quote).joined(separator: ", ")
            let order = join.orderColumns.map { ", n." + Database.quote($0) }.joined()
            let name = SQLValue.text(join.name)
            if recorded {
                // Seeded links (recorded, still there) the new seed drops, between objects it keeps.
                try database.run("""
                    DELETE FROM main.\(joinTable) WHERE (\(first), \(second)) IN (
                      SELECT r.A, r.B FROM main.\(SeedRecord.linksTable) r
                      JOIN temp.seedgen_map a ON a.TBL = \(tableNumber(owner.table)) AND a.SPK = r.A
                      JOIN temp.seedgen_map b ON b.TBL = \(tableNumber(member.table)) AND b.SPK = r.B
                      WHERE r.JOINTABLE = ?1 AND a.FATE IN ('seeded', 'changed', 'user') AND b.FATE IN ('seeded', 'changed', 'user')
                        AND NOT EXISTS (SELECT 1 FROM seed.\(joinTable) j WHERE j.\(first) = a.NPK AND j.\(second) = b.NPK))
                    """, [name])
                // Their record goes; a link the user removed and the new seed still makes stays recorded.
                let (a, b) = (SeedRecord.linksTable + ".A", SeedRecord.linksTable + ".B")
                try database.run("""
                    DELETE FROM main.\(SeedRecord.linksTable) WHERE JOINTABLE = ?1
                      AND NOT EXISTS (SELECT 1 FROM main.\(joinTable) j WHERE j.\(first) = \(a) AND j.\(second) = \(b))
                      AND EXISTS (SELECT 1 FROM temp.seedgen_map m WHERE m.TBL = \(tableNumber(owner.table)) AND m.SPK = \(a) AND m.FATE IN ('seeded', 'changed', 'user'))
                      AND EXISTS (SELECT 1 FROM temp.seedgen_map m WHERE m.TBL = \(tableNumber(member.table)) AND m.SPK = \(b) AND m.FATE IN ('seeded', 'changed', 'user'))
                      AND NOT EXISTS (\(mapped) AND a.SPK = \(a) AND b.SPK = \(b))
                    """, [name])
                // The new seed's links the record does not show the user removed.
                try database.run("""
                    INSERT OR IGNORE INTO main.\(joinTable) (\(columns))
                    SELECT n.A, n.B\(order) FROM (\(mapped)) n
                    WHERE n.AF NOT IN ('deleted', 'clash') AND n.BF NOT IN ('deleted', 'clash')
                      AND NOT EXISTS (SELECT 1 FROM main.\(SeedRecord.linksTable) r WHERE r.JOINTABLE = ?1 AND r.A = n.A AND r.B = n.B)
                    """, [name])
            } else {
                try database.execute("""
                    INSERT OR IGNORE INTO main.\(joinTable) (\(columns))
                    SELECT n.A, n.B\(order) FROM (\(mapped)) n
                    WHERE n.AF = 'add' OR n.BF = 'add' OR (n.AF IN ('add', 'seeded', 'changed') AND n.BF IN ('add', 'seeded', 'changed'))
                    """)
            }
            try database.run("""
                INSERT OR IGNORE INTO main.\(SeedRecord.linksTable) (JOINTABLE, A, B)
                SELECT ?1, n.A, n.B FROM (\(mapped)) n JOIN main.\(joinTable) j ON j.\(first) = n.A AND j.\(second) = n.B
                """, [name])
        }
    }
}

extension UpdateStep {
    /// Drops the record of links whose objects are gone (removed by the update, or deleted by the user).
    func forgetLinksOfGoneObjects() throws {
        guard try SeedRecord.recordsLinks(in: database) else { return }
        for join in store.joinTables {
            guard let owner = store.entity(named: join.entity), let member = store.entity(named: join.inverseEntity) else { continue }
            try database.run("""
                DELETE FROM main.\(SeedRecord.linksTable) WHERE JOINTABLE = ?
                  AND (NOT EXISTS (SELECT 1 FROM main.\(table(owner)) t WHERE t.Z_PK = \(SeedRecord.linksTable).A)
                    OR NOT EXISTS (SELECT 1 FROM main.\(table(member)) t WHERE t.Z_PK = \(SeedRecord.linksTable).B))
                """, [.text(join.name)])
        }
    }
}
