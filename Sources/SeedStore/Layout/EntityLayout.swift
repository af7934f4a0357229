/// Where one entity lives in the store.
public struct EntityLayout: Sendable, Hashable {
    /// The entity's name.
    public var name: String
    /// Its `Z_ENT` number.
    public var number: Int
    /// The parent's number, 0 for a root (`Z_SUPER`).
    public var superNumber: Int
    /// The table of its root entity.
    public var table: String
    /// True for an abstract entity.
    public var isAbstract: Bool
    /// Its own number and those of every entity below it.
    public var subtreeNumbers: [Int]
    /// Its renaming identifier, which an old `Z_NAME` may still hold.
    public var renamingIdentifier: String?

    /// `subtreeNumbers` as an SQL list, for `Z_ENT IN (…)`.
    public var subtreeList: String {
        subtreeNumbers.map(String.init).joined(separator: ", ")
    }
}
