import SeedModel
import SeedStore

/// Writes links into rows as Core Data stores them: a to-one's columns (with its place when its
/// inverse is an ordered to-many), a member's owner column for a to-many without an inverse, a
/// join table's row with its order columns. Places in ordered to-manys are counted over the
/// whole build, from any element or file.
final class LinkWriter {
    private let builder: StoreBuilder
    private let layout: StoreLayout
    /// The last place given in each ordered to-many that has objects (one entry per owner).
    private var orderedPlaces: [OrderedList: Int64] = [:]

    /// A writer of links into `builder`'s rows.
    init(builder: StoreBuilder) {
        self.builder = builder
        self.layout = builder.layout
    }

    /// The next 1-based place in `holder`'s ordered to-many `relationship` (`given` takes that
    /// place, and later ones follow it).
    func nextPlace(in holder: ObjectReference, _ relationship: String, given: Int? = nil) -> Int64 {
        let list = OrderedList(table: layout.entity(named: holder.entity)!.table, relationship: relationship, holder: holder.primaryKey)
        let last = orderedPlaces[list] ?? 0
        let place = given.map(Int64.init) ?? last + 1
        orderedPlaces[list] = max(place, last)
        return place
    }

    /// Sets `object`'s column that holds `target`'s `Z_PK` (with its companions, and the place
    /// `place` gives, asked only for a new link), unless it holds it already; another `Z_PK`
    /// there is the `conflict`.
    func setKey(of object: ObjectReference, _ columns: ToOneColumns, to target: ObjectReference, place: (() -> Int64)?,
                at location: InputLocation, conflict: (Int64) -> InputError) throws(InputError) {
        let table = layout.entity(named: object.entity)!.table
        if let existing = try builder.rows(at: location, { rows throws(SQLiteError) in try rows.destination(of: object.primaryKey, in: table, columns) }) {
            guard existing == target.primaryKey else { throw conflict(existing) }
            return
        }
        let destination = ObjectRows.Row(primaryKey: target.primaryKey, entityNumber: target.entityNumber)
        let position = place?()
        try builder.rows(at: location) { rows throws(SQLiteError) in
            try rows.setToOne(of: object.primaryKey, in: table, columns, to: destination, place: position)
        }
    }

    /// Puts `owner` into the member's column of a to-many without an inverse (`Z<n><NAME>`):
    /// a member has one owner through it, so another owner than it holds is a conflict.
    func setOwner(of member: ObjectReference, to owner: ObjectReference, through relationship: RelationshipDescription,
                  at location: InputLocation) throws(InputError) {
        try setKey(of: member, layout.memberColumns(for: relationship.name, of: owner.entity)!, to: owner, place: nil, at: location) { existing in
            InputError("\(member) is in \(owner.entity).\(relationship.name) of two objects, \(owner.entity) #\(existing) and \(owner): the relationship has no inverse, and its store holds one owner per object", at: location)
        }
    }

    /// One row of a many-to-many join table (`inverse` is the relationship's inverse), with
    /// order columns where either side is ordered: each ordered side places the other object
    /// last in its list (a given `position`, in the source's).
    func addJoinRow(_ source: ObjectReference, _ relationship: RelationshipDescription, _ target: ObjectReference, inverse: String,
                    position: Int?, at location: InputLocation) throws(InputError) {
        let (join, sourceIsFirst) = layout.joinTableSide(for: relationship.name, of: source.entity)!
        let (first, second) = sourceIsFirst ? (source, target) : (target, source)
        let places = join.orderings.map { ordering -> Int64? in
            let holderIsSource = (ordering.holderColumn == join.firstColumn) == sourceIsFirst
            return holderIsSource ? nextPlace(in: source, relationship.name, given: position) : nextPlace(in: target, inverse)
        }
        try builder.rows(at: location) { rows throws(SQLiteError) in
            try rows.addJoinRow(join, first: first.primaryKey, second: second.primaryKey, places: places)
        }
    }
}
