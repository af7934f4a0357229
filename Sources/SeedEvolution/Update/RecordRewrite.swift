import SeedStore

/// The store's record and bookkeeping rewritten for the new seed (`UpdatePhase.rewriteRecord`,
/// `.rewriteBookkeeping`).
struct RecordRewrite: UpdateConcept {
    let context: UpdateContext
}

extension RecordRewrite {
    /// The record of the new seed: digests of the objects changed, rows for the objects added.
    /// Objects the user changed or deleted keep their old rows (they stay the user's); the record
    /// of links forgets the objects that are gone.
    func rewriteRecord() throws {
        for entity in concreteEntities {
            let digest = SeedRecord.digestSQL(of: entity, in: store, alias: "t")
            try database.execute("""
                UPDATE main.\(SeedRecord.table) SET DIGEST = (SELECT \(digest) FROM main.\(table(entity)) t WHERE t.Z_PK = \(SeedRecord.table).PK)
                WHERE ENTITY = \(entity.number) AND PK IN (SELECT STORE_PK FROM temp.\(Scratch.touched) WHERE ENTITY = \(entity.number) AND FATE = \(Fate.changed.sql));
                INSERT INTO main.\(SeedRecord.table) (ENTITY, PK, KEY, DIGEST)
                SELECT \(entity.number), m.STORE_PK, m.KEY, \(digest) FROM temp.\(Scratch.touched) m JOIN main.\(table(entity)) t ON t.Z_PK = m.STORE_PK
                WHERE m.ENTITY = \(entity.number) AND m.FATE = \(Fate.add.sql);
                """)
        }
        try LinkChanges(context: context).forgetLinksOfGoneObjects()
        // The TEMP tables stay until the connection closes, which deletes their file whole
        // (dropping them freed every page one by one: 0.3-0.9 s of a 1M-object update).
        try SeedRecord.writeModel(store.model, in: database)
    }

    /// `Z_MAX` of each root at least its table's highest `Z_PK`; the metadata `metadata`.
    func rewriteBookkeeping(metadata: [UInt8]) throws {
        for table in store.tables {
            let root = store.entity(named: table.rootEntity)!
            try database.execute("""
                UPDATE main.Z_PRIMARYKEY SET Z_MAX = MAX(Z_MAX, IFNULL((SELECT MAX(Z_PK) FROM main.\(Database.quote(table.name))), 0))
                WHERE Z_ENT = \(root.number)
                """)
        }
        try database.run("UPDATE main.Z_METADATA SET Z_PLIST = ?", [.blob(metadata)])
    }
}
