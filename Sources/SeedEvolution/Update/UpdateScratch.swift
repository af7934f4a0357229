import SeedStore

/// The update's work tables: TEMP tables of the store's connection, which SQLite keeps in a file
/// of its own and deletes whole when the connection closes. Every table the update makes is
/// named here, with what each row holds; the ones the phases hand on are made here too. A
/// `Z_PK` is the store's (`STORE_PK`, `PK`) or the new seed's (`SEED_PK`); `TABLE_NUMBER` is a
/// table's place in the layout (`ObjectNames.tableNumbers`), which both seeds share.
enum UpdateScratch {
    /// The new seed's record, as an installed copy of it would hold it (`UpdatePhase.recordSeed`):
    /// `ENTITY`, `PK` (its `Z_PK` in the new seed), `KEY`, `DIGEST` — the columns of
    /// `SEEDGEN_SEEDED`, so that the record's own SQL reads it.
    static let newRecord = "seedgen_new_record"
    /// Each object the store's record holds (`UpdatePhase.classify`): `ENTITY`, `PK`, `KEY`,
    /// `SEEDED_DIGEST` (its row as its seed wrote it) and `CURRENT_DIGEST` (its row now; NULL
    /// when the user deleted it). One row per key of an entity.
    static let recorded = "seedgen_recorded"
    /// Each object of the new seed (`UpdatePhase.classify`): `TABLE_NUMBER`, `SEED_PK`,
    /// `ENTITY`, `KEY`, `STORE_PK` (its `Z_PK` here: the recorded object's, the next free one
    /// for one to add, a user's object's that takes its place; NULL for one not written, so
    /// nothing the update writes points at it), `FATE` (`SeedUpdater.Fate`), `SEED_DIGEST` (the
    /// new seed's record's), `RECORDED_DIGEST` and `RECORDED_PK` (the store's record's, NULL
    /// for an object it does not hold).
    static let newObjects = "seedgen_new_objects"
    /// The rows of `newObjects` but the seeded objects left as they are, once the changes are
    /// found (`UpdatePhase.markChanges`): a few in a seed update, which the later phases read.
    static let touched = "seedgen_touched"
    /// A user's objects (not in the record) of one entity by the key each gives: `KEY`, `PK`;
    /// made and dropped by `classify` for each entity where an object to add may clash.
    static let userObjects = "seedgen_user_objects"
    /// The recorded objects still in the store that the new seed no longer holds (`remove`):
    /// `ENTITY`, `PK`, `KEY`, `CHANGED` (by the user).
    static let noLongerSeeded = "seedgen_no_longer_seeded"
    /// Those of `noLongerSeeded` the user left as seeded, to be deleted: `ENTITY`, `PK`, `KEY`.
    static let toRemove = "seedgen_to_remove"
    /// Those of `toRemove` that something of the user's points at: kept, the user's now.
    static let keptLinked = "seedgen_kept_linked"
    /// One join table's rows before its links are updated (`LinkUpdate.snapshot`).
    static let linksBefore = "seedgen_links_before"
    /// The objects whose many-to-many links the update changed, by the side each join table is
    /// named after: `TABLE_NUMBER`, `PK` (`LinkUpdate.noteChangedOwners`).
    static let linkChangedOwners = "seedgen_link_changed_owners"
    /// The objects the user changed or made, with their rows' digests before the update:
    /// `ENTITY`, `PK`, `CURRENT_DIGEST` (`UpdateLedger`).
    static let ledgerUserObjects = "seedgen_ledger_user_objects"
    /// The many-to-many links that hold a user's object: `JOINTABLE`, `A`, `B` (`UpdateLedger`).
    static let ledgerLinks = "seedgen_ledger_links"

    /// The numbers the record knows the objects of the table numbered `table` by, keyed by their
    /// `Z_PK` in the new seed: `SEED_PK`, `PK` (`UpdateContext.makeRecordedNumbers`): a rowid table
    /// of one table's objects, where a lookup per row of a million-row entity is cheaper than in
    /// `newObjects`.
    static func recordedPKs(ofTable table: Int) -> String { "seedgen_recorded_pks_\(table)" }

    /// Makes `newRecord`, empty.
    static func createNewRecord(in database: Database) throws {
        try database.execute("CREATE TEMP TABLE \(newRecord) (ENTITY INTEGER, PK INTEGER, KEY TEXT, DIGEST BLOB, PRIMARY KEY (ENTITY, PK)) WITHOUT ROWID")
    }

    /// Makes `recorded` and `newObjects`, empty. A recorded digest that is not one is refused
    /// by `recorded`'s constraint (a damaged record).
    static func createClassification(in database: Database) throws {
        try database.execute("""
            CREATE TEMP TABLE \(recorded) (ENTITY INTEGER, PK INTEGER, KEY TEXT,
              SEEDED_DIGEST BLOB CHECK (typeof(SEEDED_DIGEST) = 'blob' AND length(SEEDED_DIGEST) = \(Database.rowDigestLength)),
              CURRENT_DIGEST BLOB, PRIMARY KEY (ENTITY, KEY)) WITHOUT ROWID;
            CREATE TEMP TABLE \(newObjects) (TABLE_NUMBER INTEGER, SEED_PK INTEGER, ENTITY INTEGER, KEY TEXT, STORE_PK INTEGER, FATE TEXT,
              SEED_DIGEST BLOB, RECORDED_DIGEST BLOB, RECORDED_PK INTEGER, PRIMARY KEY (TABLE_NUMBER, SEED_PK)) WITHOUT ROWID;
            """)
    }
}
