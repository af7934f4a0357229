import SeedModel
import SeedStore

/// The update of one join table's links (`LinkChanges.updateLinks`), in SQL on the store's
/// connection with the new seed attached and `temp.seedgen_new_objects` filled. `A` and `B` are a link's
/// `Z_PK`s in the store (first and second column), `P1` and `P2` its positions (the join table's
/// order columns, as `SeedRecord.positions` lists them).
struct LinkUpdate: UpdateConcept {
    let context: UpdateContext
    let join: JoinTableLayout
    let ownerTable: Int
    let memberTable: Int

    init?(_ join: JoinTableLayout, context: UpdateContext) {
        guard let owner = context.store.entity(named: join.entity), let member = context.store.entity(named: join.inverseEntity) else { return nil }
        self.context = context
        self.join = join
        ownerTable = context.tableNumber(owner.table)
        memberTable = context.tableNumber(member.table)
    }

    private var table: String { Database.quote(join.name) }
    private var first: String { Database.quote(join.firstColumn) }
    private var second: String { Database.quote(join.secondColumn) }
    private var record: String { "main.\(SeedRecord.linksTable)" }
    private var name: [SQLValue] { [.text(join.name)] }
    /// Objects both seeds hold that the store keeps (not ones the user deleted or holds in their stead).
    private static let kept = "(\(Fate.seeded.sql), \(Fate.changed.sql), \(Fate.user.sql))"

    /// The new seed's links in the store's numbering, between objects the store holds:
    /// `A, B, A_FATE, B_FATE` (the two objects' fates), `P1, P2`.
    private var mapped: String {
        """
        SELECT a.STORE_PK AS A, b.STORE_PK AS B, a.FATE AS A_FATE, b.FATE AS B_FATE, \(SeedRecord.positions(of: join, alias: "j", named: true))
        FROM seed.\(table) j
        JOIN temp.\(Scratch.newObjects) a ON a.TABLE_NUMBER = \(ownerTable) AND a.SEED_PK = j.\(first)
        JOIN temp.\(Scratch.newObjects) b ON b.TABLE_NUMBER = \(memberTable) AND b.SEED_PK = j.\(second)
        WHERE a.STORE_PK IS NOT NULL AND b.STORE_PK IS NOT NULL
        """
    }

    /// Removes the links the record shows the seed made that the new seed drops, between objects
    /// both seeds hold; their record goes (a link the user removed and the new seed still makes
    /// stays recorded: it is not brought back).
    func removeDropped() throws {
        try database.run("""
            DELETE FROM main.\(table) WHERE (\(first), \(second)) IN (
              SELECT r.A, r.B FROM \(record) r
              JOIN temp.\(Scratch.newObjects) a ON a.TABLE_NUMBER = \(ownerTable) AND a.STORE_PK = r.A
              JOIN temp.\(Scratch.newObjects) b ON b.TABLE_NUMBER = \(memberTable) AND b.STORE_PK = r.B
              WHERE r.JOINTABLE = ?1 AND a.FATE IN \(Self.kept) AND b.FATE IN \(Self.kept)
                AND NOT EXISTS (SELECT 1 FROM seed.\(table) j WHERE j.\(first) = a.SEED_PK AND j.\(second) = b.SEED_PK))
            """, name)
        let (a, b) = (SeedRecord.linksTable + ".A", SeedRecord.linksTable + ".B")
        try database.run("""
            DELETE FROM \(record) WHERE JOINTABLE = ?1
              AND NOT EXISTS (SELECT 1 FROM main.\(table) j WHERE j.\(first) = \(a) AND j.\(second) = \(b))
              AND EXISTS (SELECT 1 FROM temp.\(Scratch.newObjects) m WHERE m.TABLE_NUMBER = \(ownerTable) AND m.STORE_PK = \(a) AND m.FATE IN \(Self.kept))
              AND EXISTS (SELECT 1 FROM temp.\(Scratch.newObjects) m WHERE m.TABLE_NUMBER = \(memberTable) AND m.STORE_PK = \(b) AND m.FATE IN \(Self.kept))
              AND NOT EXISTS (\(mapped) AND a.STORE_PK = \(a) AND b.STORE_PK = \(b))
            """, name)
    }

    /// Moves each link still at its recorded place in an ordered list to the new seed's place.
    func reposition() throws {
        for (index, column) in join.orderColumns.enumerated() {
            let (position, p) = (Database.quote(column), "P\(index + 1)")
            let this = "n.A = \(table).\(first) AND n.B = \(table).\(second)"
            try database.run("""
                UPDATE main.\(table) SET \(position) = (SELECT n.\(p) FROM (\(mapped)) n WHERE \(this))
                WHERE EXISTS (SELECT 1 FROM \(record) r WHERE r.JOINTABLE = ?1 AND r.A = \(table).\(first) AND r.B = \(table).\(second)
                                AND r.\(p) IS \(table).\(position))
                  AND EXISTS (SELECT 1 FROM (\(mapped)) n WHERE \(this) AND n.\(p) IS NOT \(table).\(position))
                """, name)
        }
    }

    /// Adds the new seed's links, with its places; with a record of links (`unlessRemoved`), all
    /// but those it shows the user removed, else those between objects the store holds as seeded
    /// (or adds).
    func addNew(unlessRemoved: Bool) throws {
        let columns = ([join.firstColumn, join.secondColumn] + join.orderColumns).map(Database.quote).joined(separator: ", ")
        let places = (0..<join.orderColumns.count).map { ", n.P\($0 + 1)" }.joined()
        let insert = "INSERT OR IGNORE INTO main.\(table) (\(columns)) SELECT n.A, n.B\(places) FROM (\(mapped)) n"
        if unlessRemoved {
            try database.run("""
                \(insert) WHERE n.A_FATE NOT IN (\(Fate.deleted.sql), \(Fate.clash.sql)) AND n.B_FATE NOT IN (\(Fate.deleted.sql), \(Fate.clash.sql))
                  AND NOT EXISTS (SELECT 1 FROM \(record) r WHERE r.JOINTABLE = ?1 AND r.A = n.A AND r.B = n.B)
                """, name)
        } else {
            try database.execute("\(insert) WHERE n.A_FATE = \(Fate.add.sql) OR n.B_FATE = \(Fate.add.sql) OR (n.A_FATE IN (\(Fate.add.sql), \(Fate.seeded.sql), \(Fate.changed.sql)) AND n.B_FATE IN (\(Fate.add.sql), \(Fate.seeded.sql), \(Fate.changed.sql)))")
        }
    }

    /// Positions one per member again in each list where the new seed's links and the store's
    /// now share one: the list renumbered as a build numbers it (2048, 3072, …) in the order of
    /// the positions, then of the members' `Z_PK`s. A recorded place the link held moves with it
    /// (call after `recordNew`), so the next update still finds it where the seed put it.
    func renumberShared() throws {
        for (index, ordering) in join.orderings.enumerated() {
            let ordersFirst = ordering.holderColumn == join.secondColumn
            let list = OrderedListNumbering.Columns(table: join.name, holder: ordering.holderColumn,
                                                    member: ordersFirst ? join.firstColumn : join.secondColumn, position: ordering.column)
            guard try OrderedListNumbering(database: database).renumber(list, lists: .sharingPlaces) > 0 else { continue }
            let (a, b) = ordersFirst ? ("r.MEMBER", "r.HOLDER") : ("r.HOLDER", "r.MEMBER")
            let places = "temp.\(OrderedListNumbering.renumbered)"
            try database.run("""
                UPDATE \(record) SET P\(index + 1) = (SELECT r.NEW FROM \(places) r WHERE \(a) = \(SeedRecord.linksTable).A AND \(b) = \(SeedRecord.linksTable).B)
                WHERE JOINTABLE = ?1 AND EXISTS (SELECT 1 FROM \(places) r WHERE \(a) = \(SeedRecord.linksTable).A AND \(b) = \(SeedRecord.linksTable).B
                                                   AND \(SeedRecord.linksTable).P\(index + 1) IS r.OLD)
                """, name)
        }
    }

    /// The join table's rows as they are before the update (`noteChangedOwners` compares, after
    /// the removals).
    func snapshot() throws {
        try database.execute("DROP TABLE IF EXISTS temp.\(Scratch.linksBefore); CREATE TEMP TABLE \(Scratch.linksBefore) AS SELECT * FROM main.\(table)")
    }

    /// Notes the owners (the first column's objects: the side the join table is named after, as
    /// `seedgen diff` reports a link's change) whose links or places the update changed, in
    /// `temp.seedgen_link_changed_owners`, for the report.
    func noteChangedOwners() throws {
        try database.execute("""
            CREATE TEMP TABLE IF NOT EXISTS \(Scratch.linkChangedOwners) (TABLE_NUMBER INTEGER, PK INTEGER, PRIMARY KEY (TABLE_NUMBER, PK)) WITHOUT ROWID;
            INSERT OR IGNORE INTO temp.\(Scratch.linkChangedOwners) SELECT \(ownerTable), \(first) FROM (
              SELECT * FROM temp.\(Scratch.linksBefore) EXCEPT SELECT * FROM main.\(table)
              UNION ALL
              SELECT * FROM (SELECT * FROM main.\(table) EXCEPT SELECT * FROM temp.\(Scratch.linksBefore)));
            DROP TABLE temp.\(Scratch.linksBefore);
            """)
    }

    /// Records the new seed's links the store holds: at the new seed's places where the store
    /// has them there; a link the user moved keeps its recorded place (it stays the user's).
    func recordNew() throws {
        let inPlace = (0..<join.orderColumns.count).map { "j.\(Database.quote(join.orderColumns[$0])) IS n.P\($0 + 1)" }
        let links = "SELECT ?1, n.A, n.B, n.P1, n.P2 FROM (\(mapped)) n JOIN main.\(table) j ON j.\(first) = n.A AND j.\(second) = n.B"
        try database.run("INSERT OR REPLACE INTO \(record) (JOINTABLE, A, B, P1, P2) \(links) WHERE \((["1"] + inPlace).joined(separator: " AND "))", name)
        try database.run("INSERT OR IGNORE INTO \(record) (JOINTABLE, A, B, P1, P2) \(links)", name)
    }
}
