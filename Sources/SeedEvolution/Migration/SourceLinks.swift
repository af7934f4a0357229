import SeedModel
import SeedStore

/// Where a source store keeps the links of one relationship, seen from one side: a join table,
/// or a table's foreign-key column (a to-one's own, or the inverse to-one of a to-many).
struct SourceLinks: Equatable {
    /// The table holding them.
    var table: String
    /// Its column holding the objects of the side the links are seen from.
    var holder: String
    /// Its column holding the linked objects.
    var linked: String
    /// Position columns, keyed by whether they order the holder side (the holder's place in
    /// the linked object's ordered list) or not (the linked object's place in the holder's).
    var orders: [Bool: String]

    /// The links of `relationship` of `entity` in `layout`; `table` names a table as the
    /// migration sees it then (aside, while rows are carried over).
    init?(of relationship: String, of entity: String, in layout: StoreLayout, table: (String) -> String? = { $0 }) {
        if let (join, isFirst) = layout.joinTableSide(for: relationship, of: entity), let name = table(join.name) {
            let (holder, linked) = isFirst ? (join.firstColumn, join.secondColumn) : (join.secondColumn, join.firstColumn)
            var orders: [Bool: String] = [:]
            for ordering in join.orderings {
                orders[(ordering.ordersFirstSide ? join.firstColumn : join.secondColumn) == holder] = ordering.column
            }
            self.init(table: name, holder: holder, linked: linked, orders: orders)
            return
        }
        guard let description = layout.model.entity(named: entity),
              let found = layout.model.allRelationships(of: description).first(where: { $0.name == relationship }) else { return nil }
        if !found.isToMany {
            guard let columns = layout.toOneColumns(for: relationship, of: entity), let name = layout.entity(named: entity).flatMap({ table($0.table) }) else { return nil }
            self.init(table: name, holder: "Z_PK", linked: columns.key, orders: columns.order.map { [true: $0] } ?? [:])
            return
        }
        guard let inverse = found.inverseName, let columns = layout.toOneColumns(for: inverse, of: found.destinationEntity),
              let name = layout.entity(named: found.destinationEntity).flatMap({ table($0.table) }) else { return nil }
        self.init(table: name, holder: columns.key, linked: "Z_PK", orders: columns.order.map { [false: $0] } ?? [:])
    }

    init(table: String, holder: String, linked: String, orders: [Bool: String]) {
        self.table = table
        self.holder = holder
        self.linked = linked
        self.orders = orders
    }

    /// `FROM <table> AS l WHERE <holder> IS NOT NULL AND <linked> IS NOT NULL`.
    var rows: String { rows(notIndexed: false) }

    /// `rows`; with `notIndexed`, read from the table itself, none of its indexes.
    func rows(notIndexed: Bool) -> String {
        "FROM \(Database.quote(table)) AS l\(notIndexed ? " NOT INDEXED" : "") WHERE l.\(Database.quote(holder)) IS NOT NULL AND l.\(Database.quote(linked)) IS NOT NULL"
    }
}
