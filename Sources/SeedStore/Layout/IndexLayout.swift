/// One index Core Data creates, with its exact `sqlite_master` text.
public struct IndexLayout: Sendable, Hashable {
    /// The index name.
    public var name: String
    /// The table it indexes.
    public var table: String
    /// The `CREATE INDEX` statement.
    public var createSQL: String
}
