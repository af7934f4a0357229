/// Where one entity lives in the store.
package struct EntityLayout: Sendable, Hashable {
    /// The entity's name.
    package var name: String
    /// Its `Z_ENT` number.
    package var number: Int
    /// The parent's number, 0 for a root (`Z_SUPER`).
    package var superNumber: Int
    /// The table of its root entity.
    package var table: String
    /// True for an abstract entity.
    package var isAbstract: Bool
    /// Its own number and those of every entity below it.
    package var subtreeNumbers: [Int]
    /// Its renaming identifier, which an old `Z_NAME` may still hold.
    package var renamingIdentifier: String?

    /// `subtreeNumbers` as an SQL list, for `Z_ENT IN (…)`.
    package var subtreeList: String {
        subtreeNumbers.map(String.init).joined(separator: ", ")
    }
}
