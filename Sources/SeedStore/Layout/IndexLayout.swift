/// One index Core Data creates, with its exact `sqlite_master` text.
package struct IndexLayout: Sendable, Hashable {
    /// The index name.
    package var name: String
    /// The table it indexes.
    package var table: String
    /// The `CREATE INDEX` statement.
    package var createSQL: String
}
