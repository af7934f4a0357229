import SeedModel
import SeedStore

extension StoreDiff {
    /// The many-to-many links only one store holds, as changes of their owners (the objects of
    /// the side each join table is named after), by owner entity and key: the destinations the
    /// old store alone links, and those the new one alone links. Order within an ordered
    /// many-to-many is not compared.
    func linkChanges(_ old: Side, _ new: Side, _ names: ObjectNames) throws -> [String: [String: [ObjectDifference.PropertyChange]]] {
        var changes: [String: [String: [ObjectDifference.PropertyChange]]] = [:]
        for join in layout.joinTables {
            let statements = try [old, new].map { side in
                guard let stored = side.layout.joinTables.first(where: { $0.entity == join.entity && $0.relationship == join.relationship }),
                      let owner = side.layout.entity(named: stored.entity), let member = side.layout.entity(named: stored.inverseEntity) else {
                    throw Failure(description: "\(side.path): no join table for \(join.entity).\(join.relationship)")
                }
                do {
                    return try side.database.prepare("""
                        SELECT n1.entity, n1.key, n2.entity, n2.key FROM \(Database.quote(stored.name)) j
                        JOIN temp.seedgen_names n1 ON n1.tbl = \(names.tableNumbers[owner.table]!) AND n1.pk = j.\(Database.quote(stored.firstColumn))
                        JOIN temp.seedgen_names n2 ON n2.tbl = \(names.tableNumbers[member.table]!) AND n2.pk = j.\(Database.quote(stored.secondColumn))
                        ORDER BY n1.entity, n1.key, n2.entity, n2.key
                        """)
                } catch {
                    throw Failure(description: "\(side.path): cannot read \(stored.name): \(error)")
                }
            }
            let (a, b) = (statements[0], statements[1])
            // The owner being gathered, and what only one side links from it.
            var owner: (entity: String, key: String)?
            var removed: [NamedObject] = [], added: [NamedObject] = []
            func flush() {
                guard let current = owner, !(removed.isEmpty && added.isEmpty) else { return }
                changes[current.entity, default: [:]][current.key, default: []]
                    .append(.init(name: join.relationship, old: .links(removed), new: .links(added)))
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

    /// Orders two rows of words as SQLite orders them by several BINARY columns: -1, 0 or 1.
    static func compare(_ a: [String], _ b: [String]) -> Int {
        for (x, y) in zip(a, b) {
            let order = compare(x, y)
            if order != 0 { return order }
        }
        return 0
    }
}
