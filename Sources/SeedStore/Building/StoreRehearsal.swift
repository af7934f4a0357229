/// One scratch database in which builds run one after another, each on a store as fresh as a
/// new builder's and each rolled back: the tables are created once, not once a build.
///
/// For fuzz targets and tests that try thousands of small inputs: a new `StoreBuilder`
/// creates a file and its tables, which is most of the time a small import takes.
package final class StoreRehearsal {
    /// The layout every rehearsed build writes.
    package let layout: StoreLayout
    private let database: Database

    /// Creates the scratch database at `path` (which must not exist), with the layout's tables.
    package init(layout: StoreLayout, path: String) throws {
        self.layout = layout
        database = try Database(path: path, mode: .create)
        try StoreBuilder.startStore(of: layout, in: database, rollingBack: true)
    }

    /// Runs `build` with a builder on the empty store, then rolls back everything it wrote,
    /// indexes included, whether it returned or threw. The builder must not be finished.
    package func rehearse<Result>(_ build: (StoreBuilder) throws -> Result) throws -> Result {
        try database.execute("SAVEPOINT seedgen_rehearsal")
        let builder = StoreBuilder(layout: layout, outputPath: "", database: database, scratchPath: nil)
        let outcome = Swift.Result { try build(builder) }
        // The row stream's thread writes on this connection: it stops before the rollback.
        builder.rowStream.stopWriter()
        // A rollback that fails would leave the next build a store that is not fresh: it throws.
        try database.execute("ROLLBACK TO seedgen_rehearsal; RELEASE seedgen_rehearsal")
        return try outcome.get()
    }
}
