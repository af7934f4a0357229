extension FetchPredicate {
    /// Parses an NSPredicate format string (the subset Core Data's SQLite store runs).
    ///
    /// Keywords are case-insensitive; `AND` binds tighter than `OR` (the SQL convention);
    /// `MATCHES`, arithmetic, functions and `SUBQUERY` are refused with their position.
    public init(parsing text: String) throws(PredicateSyntaxError) {
        var parser = PredicateParser(text)
        self = try parser.parseAll()
    }
}
