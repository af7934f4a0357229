import Foundation

/// How many cases a property test runs: `SEEDGEN_PROPERTY_CASES` when set (`make property`
/// sets 3,000), else the suite's own number for `make test`.
public enum PropertyCases {
    /// The number of cases, `makeTest` unless the environment sets one.
    public static func count(makeTest: Int) -> Int {
        Int(ProcessInfo.processInfo.environment["SEEDGEN_PROPERTY_CASES"] ?? "") ?? makeTest
    }
}
