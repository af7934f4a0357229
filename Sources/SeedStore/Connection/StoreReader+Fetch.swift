import SeedModel

extension StoreReader {
    /// The objects `request` matches, read with the model's layout.
    package func fetch(_ request: FetchRequest, layout: StoreLayout) throws -> [FetchedObject] {
        try file.database.fetchObjects(request, layout: layout)
    }

    /// The number of objects `request` matches (honouring its limit and offset).
    package func count(_ request: FetchRequest, layout: StoreLayout) throws -> Int {
        try file.database.countObjects(request, layout: layout)
    }
}
