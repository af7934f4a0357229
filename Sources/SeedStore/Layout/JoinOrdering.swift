import SeedModel

/// One order column of a join table: the positions of one side's objects within each object of the other side.
package struct JoinOrdering: Sendable, Hashable {
    /// The column (`Z_FOK_…`).
    package var column: String
    /// True when it orders the first column's objects (within each second-side object).
    package var ordersFirstSide: Bool
    /// The column holding the object whose list is ordered.
    package var holderColumn: String
}
