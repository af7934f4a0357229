/// A compound index declared on an entity (`<fetchIndex>`), which Core Data creates in the store.
public struct FetchIndexDescription: Sendable, Hashable, Codable {
    /// One element of a fetch index.
    public struct Element: Sendable, Hashable, Codable {
        /// The indexed property, or nil for an expression element.
        public var property: String?
        /// The expression (`lowercase:(name)`) of an expression element.
        public var expression: String?
        /// `Binary` (a B-tree) or `RTree`.
        public var kind: String
        /// True for `order="ascending"` (the default).
        public var isAscending: Bool

        /// Creates an element.
        public init(property: String?, expression: String? = nil, kind: String = "Binary", isAscending: Bool = true) {
            self.property = property
            self.expression = expression
            self.kind = kind
            self.isAscending = isAscending
        }
    }

    /// The index's name; the store index is `Z_<Entity>_<name>`.
    public var name: String
    /// The elements in file order.
    public var elements: [Element]
    /// The line of the `<fetchIndex>` element.
    public var line: Int

    /// Creates a fetch index.
    public init(name: String, elements: [Element], line: Int = 0) {
        self.name = name
        self.elements = elements
        self.line = line
    }
}
