import SeedModel
import SeedStore

/// Places in ordered to-manys, counted over the whole build (from any element or file).
extension SeedRepository {
    /// The next 1-based place in `holder`'s ordered to-many `relationship`, counted over the
    /// whole build (`given` takes that place, and later ones follow it).
    func nextPlace(in holder: ObjectReference, _ relationship: String, given: Int? = nil) -> Int64 {
        let list = OrderedList(table: layout.entity(named: holder.entity)!.table, relationship: relationship, holder: holder.primaryKey)
        let last = orderedPlaces[list] ?? 0
        let place = given.map(Int64.init) ?? last + 1
        orderedPlaces[list] = max(place, last)
        return place
    }

    /// The place a deferred reference from `source` reserves now, so that it keeps its order
    /// among the others of `source`'s ordered to-many (nil when `relationship` is not one).
    func reservedPlace(in source: ObjectReference, _ relationship: String) -> Int? {
        guard let description = plans[source.entity]?.relationships[relationship], description.isToMany, description.isOrdered else { return nil }
        return Int(nextPlace(in: source, relationship))
    }
}
