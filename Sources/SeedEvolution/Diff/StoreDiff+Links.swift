import SeedModel
import SeedStore

extension StoreDiff {
    /// The links of to-manys not stored in an owner's to-one that only one store holds: those
    /// of many-to-manys (their join tables) and of to-manys without an inverse (their owner's
    /// column in the members' rows). Each is a change of its owner (for a many-to-many, the
    /// object of the side its join table is named after), by owner entity and key: the
    /// destinations the old store alone links, and those the new one alone links. Order within
    /// an ordered many-to-many is not compared.
    func linkChanges(_ old: Side, _ new: Side, _ names: ObjectNames) throws -> [String: [String: [ObjectDifference.PropertyChange]]] {
        var changes: [String: [String: [ObjectDifference.PropertyChange]]] = [:]
        let owned = layout.tables.flatMap(\.columns).compactMap { column -> (entity: String, relationship: String)? in
            if case .ownerKey(_, let owner, let relationship) = column.role { (owner, relationship) } else { nil }
        }
        for (entity, relationship) in layout.joinTables.map({ ($0.entity, $0.relationship) }) + owned {
            let statements = try [old, new].map { side in
                let select = try Self.linkSelect(entity, relationship, in: side, names)
                do {
                    return try side.database.prepare(select)
                } catch {
                    throw Failure(description: "\(side.path): cannot read the links of \(entity).\(relationship): \(error)")
                }
            }
            let (a, b) = (statements[0], statements[1])
            // The owner being gathered, and what only one side links from it.
            var owner: (entity: String, key: String)?
            var removed: [NamedObject] = [], added: [NamedObject] = []
            func flush() {
                guard let current = owner, !(removed.isEmpty && added.isEmpty) else { return }
                changes[current.entity, default: [:]][current.key, default: []]
                    .append(.init(name: relationship, old: .links(removed), new: .links(added)))
            }
            func link(_ statement: Statement) -> [String] { (0..<4).map { statement.value(at: $0).text ?? "" } }
            var hasA = try a.step(), hasB = try b.step()
            while hasA || hasB {
                let linkA = hasA ? link(a) : [], linkB = hasB ? link(b) : []
                let order = !hasB ? -1 : !hasA ? 1 : Self.compare(linkA, linkB)
                let here = order <= 0 ? linkA : linkB
                if owner?.entity != here[0] || owner?.key != here[1] {
                    flush()
                    owner = (here[0], here[1])
                    removed = []
                    added = []
                }
                let destination = names.object(entity: here[2], key: here[3])
                if order < 0 { removed.append(destination) }
                if order > 0 { added.append(destination) }
                if order <= 0 { hasA = try a.step() }
                if order >= 0 { hasB = try b.step() }
            }
            flush()
        }
        return changes
    }

    /// The SELECT of every link of `entity`'s to-many `relationship` in `side` as the names of
    /// its two objects (owner entity and key, member entity and key), in that order.
    private static func linkSelect(_ entity: String, _ relationship: String, in side: Side, _ names: ObjectNames) throws -> String {
        if let join = side.layout.joinTables.first(where: { $0.entity == entity && $0.relationship == relationship }),
           let owner = side.layout.entity(named: join.entity), let member = side.layout.entity(named: join.inverseEntity) {
            return select(from: join.name, holder: (owner.table, join.firstColumn), member: (member.table, join.secondColumn), names)
        }
        guard let columns = side.layout.memberColumns(for: relationship, of: entity), let owner = side.layout.entity(named: entity),
              let member = side.layout.relationship(relationship, of: entity).flatMap({ side.layout.entity(named: $0.destinationEntity) }) else {
            throw Failure(description: "\(side.path): no join table or owner column for \(entity).\(relationship)")
        }
        return select(from: member.table, holder: (owner.table, columns.key), member: (member.table, "Z_PK"), names)
    }

    /// `SELECT` of the names of the (holder, member) pairs of the rows of `table`: for each
    /// side, the table its objects are numbered by in `names` and the column of `table` holding them.
    private static func select(from table: String, holder: (table: String, column: String), member: (table: String, column: String),
                               _ names: ObjectNames) -> String {
        """
        SELECT n1.entity, n1.key, n2.entity, n2.key FROM \(Database.quote(table)) j
        JOIN temp.seedgen_names n1 ON n1.tbl = \(names.tableNumbers[holder.table]!) AND n1.pk = j.\(Database.quote(holder.column))
        JOIN temp.seedgen_names n2 ON n2.tbl = \(names.tableNumbers[member.table]!) AND n2.pk = j.\(Database.quote(member.column))
        ORDER BY n1.entity, n1.key, n2.entity, n2.key
        """
    }

    /// Orders two rows of words as SQLite orders them by several BINARY columns: -1, 0 or 1.
    static func compare(_ a: [String], _ b: [String]) -> Int {
        for (x, y) in zip(a, b) {
            let order = compare(x, y)
            if order != 0 { return order }
        }
        return 0
    }
}
