import SeedModel

extension StoreReader {
    /// The objects `request` matches, read with the model's layout.
    /// Checks the store's values first (`requireReadableValues`).
    package func fetch(_ request: FetchRequest, layout: StoreLayout) throws -> [FetchedObject] {
        try requireReadableValues(of: layout)
        return try file.database.fetchObjects(request, layout: layout)
    }

    /// The number of objects `request` matches (honouring its limit and offset).
    package func count(_ request: FetchRequest, layout: StoreLayout) throws -> Int {
        try file.database.countObjects(request, layout: layout)
    }
}
