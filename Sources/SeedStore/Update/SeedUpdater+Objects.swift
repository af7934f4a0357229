import SeedModel

extension SeedUpdater {
    /// What a seed object of the new seed becomes in the store (`temp.seedgen_map.FATE`).
    enum Fate: String {
        /// Not in the store's record: inserted.
        case add
        /// The store holds it as its seed wrote it, and the new seed has it the same.
        case seeded
        /// The store holds it as its seed wrote it; the new seed changes it: changed.
        case changed
        /// The user changed it since install: left alone.
        case user
        /// The user deleted it: not brought back.
        case deleted
        /// New to the store's seed, but a user's object holds its key: the user's object stays.
        case clash
    }

    /// The update, inside the write transaction `database` holds with the new seed attached as `seed`.
    func update(in database: Database, seed: StoreMetadata) throws -> SeedUpdateReport {
        let metadata = try checkedMetadata(database, path: storePath)
        guard try SeedRecord.isPresent(in: database) else {
            throw SeedUpdateError(.noSeedRecord, "\(storePath): the store carries no record of the seed it was installed from (\(SeedRecord.table)): it was built by a seedgen without seed updates, or something rewrote it; which objects the user changed cannot be told, so nothing was changed")
        }
        if let held = metadata.originDigest, held == seed.originDigest { return SeedUpdateReport(updated: false) }
        let store = try StoreFile(path: storePath, database: database).storedLayout(of: layout, frameworkVersion: metadata.frameworkVersion).layout
        let names = ObjectNames(layout: store, buildKeys: metadata.buildKeys.merging(seed.buildKeys) { _, newer in newer }, contentByDigest: true)
        let step = UpdateStep(database: database, store: store, names: names)
        try step.classify()
        try step.insertAndChange()
        try step.renumberPositions()
        var report = try step.report()
        try step.remove(into: &report)
        try step.rewriteRecord()
        try step.rewriteBookkeeping(metadata: try StoreMetadata.updating(database.metadataRow()?.plist ?? [], toSeed: seed))
        report.updated = true
        return report
    }
}

/// The SQL of one update, on the store's connection (`main`) with the new seed attached
/// (`seed`), through TEMP tables: `seedgen_state` (each recorded object: its key, the digest
/// its seed recorded and the one its row has now, NULL when the user deleted it) and
/// `seedgen_map` (each object of the new seed: its `Z_PK` there and here, and its `Fate`).
/// Both seeds share the model and its layout; so do their entity numbers.
struct UpdateStep {
    let database: Database
    let store: StoreLayout
    let names: ObjectNames

    var concreteEntities: [EntityLayout] { store.entities.filter { !$0.isAbstract } }

    func table(_ entity: EntityLayout) -> String { Database.quote(entity.table) }
    func tableNumber(_ name: String) -> Int { names.tableNumbers[name]! }

    /// Fills `seedgen_state` and `seedgen_map`, numbering the objects to insert after `Z_MAX`.
    func classify() throws {
        database.registerRowDigest()
        try database.execute("""
            CREATE TEMP TABLE seedgen_state (ENTITY INTEGER, PK INTEGER, KEY TEXT, SEEDED BLOB, NOW BLOB, PRIMARY KEY (ENTITY, PK)) WITHOUT ROWID;
            CREATE TEMP TABLE seedgen_map (TBL INTEGER, NPK INTEGER, ENTITY INTEGER, KEY TEXT, SPK INTEGER, FATE TEXT, PRIMARY KEY (TBL, NPK)) WITHOUT ROWID;
            """)
        for entity in concreteEntities {
            try database.execute("""
                INSERT INTO temp.seedgen_state SELECT r.ENTITY, r.PK, r.KEY, r.DIGEST,
                  CASE WHEN t.Z_PK IS NULL THEN NULL ELSE \(SeedRecord.digestSQL(of: entity, in: store, alias: "t")) END
                FROM main.\(SeedRecord.table) r LEFT JOIN main.\(table(entity)) t ON t.Z_PK = r.PK AND t.Z_ENT = r.ENTITY
                WHERE r.ENTITY = \(entity.number)
                """)
        }
        try database.execute("CREATE INDEX temp.seedgen_state_by_key ON seedgen_state (ENTITY, KEY)")
        for entity in concreteEntities {
            try database.execute("""
                INSERT INTO temp.seedgen_map SELECT \(tableNumber(entity.table)), n.PK, n.ENTITY, n.KEY, s.PK,
                  CASE WHEN s.PK IS NULL THEN '\(SeedUpdater.Fate.add.rawValue)' WHEN s.NOW IS NULL THEN '\(SeedUpdater.Fate.deleted.rawValue)'
                       WHEN s.NOW = s.SEEDED THEN '\(SeedUpdater.Fate.seeded.rawValue)' ELSE '\(SeedUpdater.Fate.user.rawValue)' END
                FROM seed.\(SeedRecord.table) n LEFT JOIN temp.seedgen_state s ON s.ENTITY = n.ENTITY AND s.KEY = n.KEY
                WHERE n.ENTITY = \(entity.number)
                """)
        }
        try database.execute("""
            CREATE INDEX temp.seedgen_map_by_key ON seedgen_map (ENTITY, KEY);
            CREATE INDEX temp.seedgen_map_by_store ON seedgen_map (TBL, SPK);
            """)
        // A user's object (not in the record) named like an object to add takes its place.
        for entity in concreteEntities {
            guard try database.scalar("SELECT 1 FROM temp.seedgen_map WHERE ENTITY = ? AND FATE = 'add' LIMIT 1", [.integer(Int64(entity.number))]) != nil,
                  let named = names.namedRows(of: entity) else { continue }
            try database.execute("""
                CREATE TEMP TABLE seedgen_user AS SELECT x.key AS KEY, x.Z_PK AS PK FROM (\(named)) x
                  WHERE NOT EXISTS (SELECT 1 FROM main.\(SeedRecord.table) r WHERE r.ENTITY = \(entity.number) AND r.PK = x.Z_PK);
                CREATE INDEX temp.seedgen_user_by_key ON seedgen_user (KEY);
                UPDATE temp.seedgen_map SET FATE = 'clash', SPK = (SELECT u.PK FROM temp.seedgen_user u WHERE u.KEY = seedgen_map.KEY)
                  WHERE ENTITY = \(entity.number) AND FATE = 'add' AND EXISTS (SELECT 1 FROM temp.seedgen_user u WHERE u.KEY = seedgen_map.KEY);
                DROP TABLE temp.seedgen_user;
                """)
        }
        // New objects take the store's next Z_PKs, table by table in the new seed's order.
        for table in store.tables {
            let root = store.entity(named: table.rootEntity)!
            let base = max(try database.scalar("SELECT IFNULL(MAX(Z_MAX), 0) FROM main.Z_PRIMARYKEY WHERE Z_ENT = ?", [.integer(Int64(root.number))])?.integer ?? 0,
                           try database.scalar("SELECT IFNULL(MAX(Z_PK), 0) FROM main.\(Database.quote(table.name))")?.integer ?? 0)
            try database.execute("""
                INSERT OR REPLACE INTO temp.seedgen_map
                SELECT TBL, NPK, ENTITY, KEY, \(base) + ROW_NUMBER() OVER (ORDER BY NPK), FATE FROM temp.seedgen_map
                WHERE TBL = \(tableNumber(table.name)) AND FATE = 'add'
                """)
        }
    }

    /// The new seed's row `alias` of `entity` as this store would hold it: each column (with
    /// `positions`, its places in ordered to-manys too), a to-one's destination `Z_PK` carried
    /// into the store's numbering (NULL when the user deleted the destination).
    func carried(_ entity: EntityLayout, alias: String, positions: Bool = true) -> [(column: String, value: String)] {
        SeedRecord.columns(of: entity, in: store, positions: positions).map { column in
            let value = "\(alias).\(Database.quote(column.name))"
            guard case .foreignKey(_, _, let destination) = column.role, let target = store.entity(named: destination) else {
                return (column.name, value)
            }
            return (column.name, "(SELECT m.SPK FROM temp.seedgen_map m WHERE m.TBL = \(tableNumber(target.table)) AND m.NPK = \(value))")
        }
    }

    /// `seedgen_digest` of the new seed's row `alias` as this store would hold it: comparable
    /// with the record's digests.
    func carriedDigest(_ entity: EntityLayout, alias: String) -> String {
        Database.rowDigestSQL(carried(entity, alias: alias, positions: false).map(\.value))
    }

    /// Marks the seeded objects the new seed changes, inserts the new ones, changes the marked
    /// ones, and adds the new seed's many-to-many links between objects it holds as seeded.
    func insertAndChange() throws {
        for entity in concreteEntities {
            let digest = carriedDigest(entity, alias: "n")
            // Compared as this store would hold it: the same digest as the record's means the same row.
            try database.execute("""
                UPDATE temp.seedgen_map SET FATE = 'changed' WHERE ENTITY = \(entity.number) AND FATE = 'seeded'
                  AND (SELECT \(digest) FROM seed.\(table(entity)) n WHERE n.Z_PK = seedgen_map.NPK)
                      IS NOT (SELECT s.SEEDED FROM temp.seedgen_state s WHERE s.ENTITY = seedgen_map.ENTITY AND s.PK = seedgen_map.SPK)
                """)
        }
        for entity in concreteEntities {
            let carried = carried(entity, alias: "n")
            let columns = (["Z_PK", "Z_ENT", "Z_OPT"] + carried.map(\.column)).map(Database.quote).joined(separator: ", ")
            try database.execute("""
                INSERT INTO main.\(table(entity)) (\(columns))
                SELECT m.SPK, n.Z_ENT, n.Z_OPT\(carried.map { ", " + $0.value }.joined())
                FROM temp.seedgen_map m JOIN seed.\(table(entity)) n ON n.Z_PK = m.NPK
                WHERE m.ENTITY = \(entity.number) AND m.FATE = 'add' ORDER BY m.SPK
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
            for row in try database.rows("SELECT SPK, NPK FROM temp.seedgen_map WHERE ENTITY = ? AND FATE = 'changed'", [.integer(Int64(entity.number))]) {
                try update.bind(row)
                try update.run()
            }
        }
        // The seed's own objects it left as they were take its places in their lists.
        for entity in concreteEntities {
            for column in SeedRecord.columns(of: entity, in: store, positions: true) {
                guard case .foreignOrder = column.role else { continue }
                let name = Database.quote(column.name)
                try database.execute("""
                    UPDATE main.\(table(entity)) SET \(name) = (SELECT n.\(name) FROM temp.seedgen_map m JOIN seed.\(table(entity)) n ON n.Z_PK = m.NPK
                      WHERE m.TBL = \(tableNumber(entity.table)) AND m.SPK = \(table(entity)).Z_PK)
                    WHERE Z_PK IN (SELECT SPK FROM temp.seedgen_map WHERE ENTITY = \(entity.number) AND FATE = 'seeded')
                    """)
            }
        }
        for join in store.joinTables {
            guard let owner = store.entity(named: join.entity), let member = store.entity(named: join.inverseEntity) else { continue }
            let held = "('add', 'seeded', 'changed')"
            let order = join.orderColumns.map { ", j." + Database.quote($0) }.joined()
            let columns = ([join.firstColumn, join.secondColumn] + join.orderColumns).map(Database.quote).joined(separator: ", ")
            try database.execute("""
                INSERT OR IGNORE INTO main.\(Database.quote(join.name)) (\(columns))
                SELECT a.SPK, b.SPK\(order) FROM seed.\(Database.quote(join.name)) j
                JOIN temp.seedgen_map a ON a.TBL = \(tableNumber(owner.table)) AND a.NPK = j.\(Database.quote(join.firstColumn))
                JOIN temp.seedgen_map b ON b.TBL = \(tableNumber(member.table)) AND b.NPK = j.\(Database.quote(join.secondColumn))
                WHERE a.SPK IS NOT NULL AND b.SPK IS NOT NULL
                  AND (a.FATE = 'add' OR b.FATE = 'add' OR (a.FATE IN \(held) AND b.FATE IN \(held)))
                """)
        }
    }

    /// The report of what `insertAndChange` did and left alone; removals come later.
    func report() throws -> SeedUpdateReport {
        var report = SeedUpdateReport(updated: true)
        for entity in concreteEntities {
            let digest = carriedDigest(entity, alias: "n")
            let rows = try database.rows("""
                SELECT m.FATE, m.KEY FROM temp.seedgen_map m WHERE m.ENTITY = ? AND (m.FATE IN ('add', 'changed', 'clash')
                  OR (m.FATE IN ('user', 'deleted') AND (SELECT \(digest) FROM seed.\(table(entity)) n WHERE n.Z_PK = m.NPK)
                      IS NOT (SELECT s.SEEDED FROM temp.seedgen_state s WHERE s.ENTITY = m.ENTITY AND s.KEY = m.KEY)))
                ORDER BY m.KEY
                """, [.integer(Int64(entity.number))])
            for row in rows {
                let object = self.object(entity, key: row[1].text ?? "")
                switch SeedUpdater.Fate(rawValue: row[0].text ?? "") {
                case .add?: report.added.append(object)
                case .changed?: report.changed.append(object)
                case .clash?: report.keptUserObject.append(object)
                case .user?: report.keptChangedByUser.append(object)
                case .deleted?: report.keptDeletedByUser.append(object)
                default: break
                }
            }
        }
        return report
    }

    /// An object of `entity` named by `key`, for the report.
    func object(_ entity: EntityLayout, key: String) -> SeedUpdateReport.Object {
        SeedUpdateReport.Object(entity: entity.name, key: names.object(entity: entity.name, key: key).keyText)
    }
}
