import SeedStore

/// What `SeedUpdater.update()` did to a store: the objects of the new seed it added, changed
/// and removed, and those it left as they were because of the user, each named by its key.
public struct SeedUpdateReport: Sendable, Equatable {
    /// One object, named by the key that names it in the seeds.
    public struct Object: Sendable, Hashable, CustomStringConvertible {
        /// The concrete entity.
        public var entity: String
        /// Its key as text: `name="Polen"`, or its first values for an object without a key.
        public var key: String
        /// True for an object without a key, named by its values (as `seedgen diff` names it).
        package var isNamedByValues = false
        /// `Team[name="Polen"]`; an object named by its values `Shelf(label="new")`, as in a diff.
        public var description: String { isNamedByValues ? "\(entity)(\(key))" : "\(entity)[\(key)]" }
    }

    /// False when the store already held the new seed (or an identical one): nothing was written.
    public var updated: Bool
    /// Objects the new seed adds, inserted.
    public var added: [Object] = []
    /// Objects the new seed changes, changed (the user had not changed them).
    public var changed: [Object] = []
    /// Objects the new seed no longer holds, deleted (the user had not changed them, and
    /// nothing else points at them).
    public var removed: [Object] = []
    /// Objects the new seed changes or removes that the user changed since they were installed:
    /// the user's values stay.
    public var keptChangedByUser: [Object] = []
    /// Objects the new seed changes that the user deleted: not brought back.
    public var keptDeletedByUser: [Object] = []
    /// Objects the new seed adds beneath an owner the user deleted (a required to-one, or one
    /// whose inverse deletes by cascade, points at it): not added, as the user's deletion of
    /// the owner would have taken them too.
    public var notAddedOwnerDeleted: [Object] = []
    /// Objects the new seed removes that other objects (the user's) still point at: kept, and
    /// now the user's.
    public var keptLinked: [Object] = []
    /// Objects the new seed adds whose key a user's object already holds: the user's object
    /// stays and takes the seed object's place in its relationships.
    public var keptUserObject: [Object] = []
    /// The seed the store now holds (its content digest).
    public var seedDigest: String?
    /// The model version the store was migrated from before the update, when it was.
    package var migratedFrom: String?
    /// What that migration removed, with how much of it the store held (the user's objects
    /// of a removed entity, values of a removed attribute, links of a removed relationship).
    package var migrationRemovals: [MigrationPlan.Removal] = []
    /// What that migration did that a team most likely did not mean (`MigrationPlan.Warning`).
    package var migrationWarnings: [MigrationPlan.Warning] = []
}
