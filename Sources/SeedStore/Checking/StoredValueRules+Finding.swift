extension StoredValueRules.Violation {
    /// The finding `verify` reports.
    package var finding: Finding {
        Finding(check: "stored-value", location: place, expected: expected, found: "\(count) row(s), the first Z_PK \(firstPrimaryKey): \(Self.shown(firstValue))")
    }
}
