/// A legacy compound index (`<compoundIndex>`): an index over several attributes, as models
/// made before fetch indexes declare it.
package struct CompoundIndexDescription: Sendable, Hashable, Codable {
    /// The indexed properties, in order.
    package var properties: [String]
    /// The line of the `<compoundIndex>` element.
    package var line: Int

    /// A compound index over `properties`.
    package init(properties: [String], line: Int = 0) {
        self.properties = properties
        self.line = line
    }
}
