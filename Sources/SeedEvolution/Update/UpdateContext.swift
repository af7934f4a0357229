import SeedModel
import SeedStore

/// What every part of one update shares (`UpdateConcept`): the SQL of one update, on the store's connection (`main`) with the new seed attached
/// (`seed`), through the work tables `UpdateScratch` names: what each recorded object is now
/// (`recorded`), what becomes of each object of the new seed (`newObjects`, and `touched` once
/// the changes are found). Both seeds share the model and its layout; so do their entity numbers.
struct UpdateContext {
    typealias Fate = SeedUpdater.Fate
    typealias Scratch = UpdateScratch

    let database: Database
    let store: StoreLayout
    let names: ObjectNames
    /// Whether the record was unpacked in this transaction (`SeedRecord.unpack`): its full
    /// digests are then its objects' rows' digests as they are, which `classify` takes rather
    /// than digesting every row again.
    var recordDigestsAreCurrent = false

    var concreteEntities: [EntityLayout] { store.entities.filter { !$0.isAbstract } }

    func table(_ entity: EntityLayout) -> String { Database.quote(entity.table) }
    func tableNumber(_ name: String) -> Int { names.tableNumbers[name]! }

    /// How the new seed's objects are named under its `buildKeys`: as the store's record names
    /// them (within their owners, or not).
    func seedNames(buildKeys: [String: [String]]) -> ObjectNames {
        ObjectNames(layout: store, buildKeys: buildKeys, contentByDigest: true, schema: "seed", namedWithoutOwner: names.namedWithoutOwner)
    }

    /// The new seed's row `alias` of `entity` as this store would hold it: each column (with
    /// `positions`, its places in ordered to-manys too), a to-one's destination `Z_PK` carried
    /// into the store's numbering (NULL when the user deleted the destination).
    /// With `asRecorded`, a to-one to an object the user deleted keeps the number the record
    /// gives it (to tell whether the seed changed the row), instead of none (what is written).
    func carried(_ entity: EntityLayout, alias: String, positions: Bool = true, asRecorded: Bool = false) -> [(column: String, value: String)] {
        SeedRecord.columns(of: entity, in: store, positions: positions).map { column in
            let value = "\(alias).\(Database.quote(column.name))"
            guard let destination = column.referencedEntity, let target = store.entity(named: destination) else {
                return (column.name, value)
            }
            let number = asRecorded ? "IFNULL(m.STORE_PK, m.RECORDED_PK)" : "m.STORE_PK"
            return (column.name, "(SELECT \(number) FROM temp.\(Scratch.newObjects) m WHERE m.TABLE_NUMBER = \(tableNumber(target.table)) AND m.SEED_PK = \(value))")
        }
    }

    /// `seedgen_digest` of the new seed's row `alias` as the record would hold it: comparable
    /// with the record's digests (an object the user deleted by the number it had).
    func carriedDigest(_ entity: EntityLayout, alias: String) -> String {
        Database.rowDigestSQL(carried(entity, alias: alias, positions: false, asRecorded: true).map(\.value))
    }

    /// `carriedDigest` for a statement over many rows: each to-one's number is looked up in its
    /// table's `UpdateScratch.recordedPKs` (`makeRecordedNumbers`) through a `LEFT JOIN` of its own,
    /// `joins`, which the statement puts after `alias` (its cursors are opened once, not once a
    /// row and column as a subquery's are).
    func recordedDigest(_ entity: EntityLayout, alias: String) -> (digest: String, joins: String) {
        var joins = ""
        let values = SeedRecord.columns(of: entity, in: store, positions: false).enumerated().map { index, column in
            let value = "\(alias).\(Database.quote(column.name))"
            guard let destination = column.referencedEntity, let target = store.entity(named: destination) else { return value }
            joins += " LEFT JOIN temp.\(Scratch.recordedPKs(ofTable: tableNumber(target.table))) r\(index) ON r\(index).SEED_PK = \(value)"
            return "r\(index).PK"
        }
        return (Database.rowDigestSQL(values), joins)
    }

    /// Makes, for each table numbered in `tables`, its `UpdateScratch.recordedPKs`.
    func makeRecordedNumbers(_ tables: Set<Int>) throws {
        for table in tables.sorted() {
            let name = Scratch.recordedPKs(ofTable: table)
            try database.execute("""
                CREATE TEMP TABLE \(name) (SEED_PK INTEGER PRIMARY KEY, PK INTEGER);
                INSERT INTO temp.\(name) SELECT SEED_PK, IFNULL(STORE_PK, RECORDED_PK) FROM temp.\(Scratch.newObjects) WHERE TABLE_NUMBER = \(table) ORDER BY SEED_PK;
                """)
        }
    }
}

/// One concept of the update (its classification, the seed's changes, the removal, the links,
/// the record, the report), each a type of its own over the shared `UpdateContext`, whose
/// connection, layouts and SQL helpers it reads as its own.
protocol UpdateConcept {
    var context: UpdateContext { get }
}

extension UpdateConcept {
    typealias Fate = SeedUpdater.Fate
    typealias Scratch = UpdateScratch

    var database: Database { context.database }
    var store: StoreLayout { context.store }
    var names: ObjectNames { context.names }
    var concreteEntities: [EntityLayout] { context.concreteEntities }

    func table(_ entity: EntityLayout) -> String { context.table(entity) }
    func tableNumber(_ name: String) -> Int { context.tableNumber(name) }

    func carried(_ entity: EntityLayout, alias: String, positions: Bool = true, asRecorded: Bool = false) -> [(column: String, value: String)] {
        context.carried(entity, alias: alias, positions: positions, asRecorded: asRecorded)
    }

    func carriedDigest(_ entity: EntityLayout, alias: String) -> String { context.carriedDigest(entity, alias: alias) }

    func object(_ entity: EntityLayout, key: String, row pk: Int64?, in schema: String = "main") throws -> SeedUpdateReport.Object {
        try context.object(entity, key: key, row: pk, in: schema)
    }
}
