import SeedModel
import SeedStore

/// The update's many-to-many links: brought to the new seed's, the owners whose links changed
/// noted, and their record kept (`LinkUpdate` does one join table).
struct LinkChanges: UpdateConcept {
    let context: UpdateContext
}

extension LinkChanges {
    /// The many-to-many links: where the store records its seed's links (`SeedRecord.linksTable`),
    /// a link the new seed drops is removed when the record shows the seed made it and both of
    /// its objects stay in the new seed (the user's own links, and links to objects the update
    /// keeps for the user's sake, stay); a link the new seed makes is added unless the record
    /// shows the user removed it. Without that record, the new seed's links are added between
    /// objects it holds as seeded (or adds), and none removed. Either way no link of a user's
    /// object is touched. In an ordered list a link still at its recorded place takes the new
    /// seed's (one the user moved stays); a list where the new seed's places and the user's
    /// meet is renumbered. The record then holds the new seed's links, and the seed's links
    /// the user removed (so a later seed does not bring them back).
    func updateLinks() throws {
        let recorded = try SeedRecord.recordsLinks(in: database)
        if !recorded { try database.execute(SeedRecord.createLinksSQL) }
        for join in store.joinTables {
            guard let links = LinkUpdate(join, context: context) else { continue }
            try links.snapshot()
            if recorded {
                try links.removeDropped()
                try links.reposition()
            }
            try links.addNew(unlessRemoved: recorded)
            try links.recordNew()
            try links.renumberShared()
        }
    }

    /// After the removals: notes the objects whose links the update changed (added, removed —
    /// with an object it deleted too — or moved), named from the side each join table is named
    /// after (`UpdateScratch.linkChangedOwners`).
    func noteLinkChanges() throws {
        for join in store.joinTables {
            try LinkUpdate(join, context: context)?.noteChangedOwners()
        }
    }

    /// The objects the update changed, in key order per entity: those whose values the new
    /// seed changed, and those whose links alone it changed (`noteLinkChanges`), as `seedgen
    /// diff` has it.
    func changedObjects() throws -> [SeedUpdateReport.Object] {
        var changed: [SeedUpdateReport.Object] = []
        guard !store.joinTables.isEmpty else {
            for entity in concreteEntities {
                for row in try database.rows("SELECT m.KEY, m.SEED_PK FROM temp.\(Scratch.touched) m WHERE m.ENTITY = ? AND m.FATE = \(Fate.changed.sql) ORDER BY m.KEY",
                                             [.integer(Int64(entity.number))]) {
                    changed.append(try object(entity, key: row[0].text ?? "", row: row[1].integer, in: "seed"))
                }
            }
            return changed
        }
        for entity in concreteEntities {
            let sameValues = "NOT " + SeedRecord.differsFromSeededSQL("(SELECT \(carriedDigest(entity, alias: "n")) FROM seed.\(table(entity)) n WHERE n.Z_PK = m.SEED_PK)", seeded: "m.RECORDED_DIGEST")
            for row in try database.rows("""
                SELECT m.KEY, m.SEED_PK FROM temp.\(Scratch.touched) m WHERE m.ENTITY = ?1 AND m.FATE = \(Fate.changed.sql)
                UNION
                SELECT m.KEY, m.SEED_PK FROM temp.\(Scratch.linkChangedOwners) c JOIN temp.\(Scratch.newObjects) m ON m.TABLE_NUMBER = c.TABLE_NUMBER AND m.STORE_PK = c.PK
                WHERE m.ENTITY = ?1 AND (m.FATE = \(Fate.seeded.sql) OR (m.FATE = \(Fate.user.sql) AND \(sameValues)))
                ORDER BY 1
                """, [.integer(Int64(entity.number))]) {
                changed.append(try object(entity, key: row[0].text ?? "", row: row[1].integer, in: "seed"))
            }
        }
        return changed
    }
}

extension LinkChanges {
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
