import SeedStore

extension StoreBuilder {
    /// Runs statements of the store's one writer of Core Data SQL (`objectRows`); a failure is
    /// reported at `location` of the input.
    @discardableResult
    func rows<Result>(at location: InputLocation, _ body: (ObjectRows) throws(SQLiteError) -> Result) throws(InputError) -> Result {
        do {
            return try body(objectRows)
        } catch {
            throw InputError("\(error)", at: location)
        }
    }
}
