import Testing

extension Issue {
    /// Runs `body`, recording an error it throws as an issue. PropertyBased's `propertyCheck`
    /// runs its body under `try?`: a case that throws would pass without a word.
    static func recordThrown(sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> Void) {
        do {
            try body()
        } catch {
            Issue.record(error, "the property's case threw", sourceLocation: sourceLocation)
        }
    }
}
