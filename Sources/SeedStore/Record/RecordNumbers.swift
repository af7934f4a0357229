/// The entity numbers the seed record's rows are under. A build writes them under the store's
/// own numbers. A migration that gives entities new numbers leaves the rows where they are (a
/// record as large as the store's largest table is not rewritten for a number) and writes,
/// in the table `SEEDGEN_RENUMBERED`, the number each entity's rows are under (`RECORDED`)
/// beside the entity's number in the store (`ENTITY`): one row per concrete entity the record
/// may hold rows of. An entity it does not list has none (one the migration added). Without
/// the table the record is under the store's numbers.
///
/// Readers translate (`recorded(_:)`, `entity(recordedAs:)`); an update first puts the record
/// under the store's numbers (`settle`), so the rest of it, like a build, knows only those.
package struct RecordNumbers {
    /// The table's name.
    package static let table = "SEEDGEN_RENUMBERED"

    /// Store entity number → the number its record rows are under; nil: the store's own numbers.
    let recordedByEntity: [Int: Int]?

    /// The record under the store's own numbers.
    package static let own = RecordNumbers(recordedByEntity: nil)

    /// The numbers `recordedByEntity` lists; the store's own where they are all the same.
    package init(recordedByEntity: [Int: Int]?) {
        self.recordedByEntity = recordedByEntity.flatMap { map in map.allSatisfy { $0.key == $0.value } ? nil : map }
    }

    /// The numbers of the record of the store at `path`, open on `database`, checked against
    /// `layout` (the store's): each row names a concrete entity of it and a number, each once.
    /// Throws `DamagedRecordError` otherwise.
    package init(in database: Database, layout: StoreLayout) throws {
        guard try SeedRecord.isPresent(Self.table, in: database) else {
            self = .own
            return
        }
        let concrete = layout.entities.filter { !$0.isAbstract }.count
        // One row per concrete entity at most: a longer table is not read past that.
        let rows = try database.rows("SELECT RECORDED, ENTITY FROM main.\(Self.table) ORDER BY RECORDED LIMIT ?", [.integer(Int64(concrete + 1))])
        guard rows.count <= concrete else { throw DamagedRecordError(.entityNumbers, "more rows than the model has concrete entities (\(concrete))") }
        var map: [Int: Int] = [:], recorded: Set<Int> = []
        for row in rows {
            guard case .integer(let number) = row[0], case .integer(let entity) = row[1], let described = layout.entity(number: Int(entity)), !described.isAbstract else {
                throw DamagedRecordError(.entityNumbers, "a row names no concrete entity of the model (\(row.map(\.description).joined(separator: ", ")))")
            }
            guard map[described.number] == nil, recorded.insert(Int(number)).inserted else {
                throw DamagedRecordError(.entityNumbers, "\(described.name) or the number \(number) is named twice")
            }
            map[described.number] = Int(number)
        }
        // Every record row is under a number the table lists: rows under another would belong
        // to no entity, and their objects silently become the user's.
        if try SeedRecord.isPresent(in: database) {
            let listed = rows.compactMap(\.first?.integer).map(String.init).joined(separator: ", ")
            if let stray = try database.scalar("SELECT ENTITY FROM main.\(SeedRecord.table) WHERE ENTITY NOT IN (\(listed.isEmpty ? "NULL" : listed)) LIMIT 1") {
                throw DamagedRecordError(.entityNumbers, "the record holds rows under the number \(stray.description), which it names for no entity")
            }
        }
        self.init(recordedByEntity: map)
    }

    /// The number the record's rows of the store's entity `number` are under; nil when the
    /// record holds none of its objects.
    package func recorded(_ number: Int) -> Int? {
        guard let recordedByEntity else { return number }
        return recordedByEntity[number]
    }

    /// The store's number of the entity whose record rows are under `recorded`; nil for none.
    func entity(recordedAs recorded: Int) -> Int? {
        guard let recordedByEntity else { return recorded }
        return recordedByEntity.first { $0.value == recorded }?.key
    }

    /// Replaces the table in the store open on `database` with these numbers; under the store's
    /// own, the table goes.
    package func write(in database: Database) throws(SQLiteError) {
        try database.execute("DROP TABLE IF EXISTS main.\(Self.table)")
        guard let recordedByEntity else { return }
        try database.execute("CREATE TABLE main.\(Self.table) (RECORDED INTEGER PRIMARY KEY, ENTITY INTEGER UNIQUE)")
        let insert = try database.prepare("INSERT INTO main.\(Self.table) VALUES (?, ?)")
        for (entity, recorded) in recordedByEntity.sorted(by: { $0.value < $1.value }) {
            try insert.bind([.integer(Int64(recorded)), .integer(Int64(entity))])
            try insert.run()
        }
    }

    /// Puts the record of the store open on `database` (inside its write transaction) under the
    /// store's own numbers, in a fresh table in (entity, `Z_PK`) order, and drops the numbers; a
    /// row of an entity they do not list goes with them. Nothing to do under the store's own.
    package func settle(in database: Database) throws(SQLiteError) {
        guard let recordedByEntity else { return try write(in: database) }
        let parked = "_seedgen_renumbering_\(SeedRecord.table)"
        try database.execute("ALTER TABLE main.\(SeedRecord.table) RENAME TO \(parked); \(SeedRecord.createSQL)")
        for (entity, recorded) in recordedByEntity.sorted(by: { $0.key < $1.key }) {
            try database.execute("INSERT INTO main.\(SeedRecord.table) SELECT \(entity), PK, KEY, DIGEST FROM main.\(parked) WHERE ENTITY = \(recorded)")
        }
        try database.execute("DROP TABLE main.\(parked)")
        try RecordNumbers.own.write(in: database)
    }
}
