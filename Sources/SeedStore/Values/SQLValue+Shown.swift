import SeedModel

extension SQLValue {
    /// The value as a message shows it to the person who wrote the data: a date in ISO 8601 UTC
    /// (`DateText.iso8601`, not seconds since 2001), a Boolean as `true` or `false`, anything
    /// else as `description`.
    package func shown(as type: AttributeType) -> String {
        switch (type, self) {
        case (.date, .real(let seconds)): DateText.iso8601(secondsSinceReferenceDate: seconds)
        case (.date, .integer(let seconds)): DateText.iso8601(secondsSinceReferenceDate: Double(seconds))
        case (.boolean, .integer(let flag)) where flag == 0 || flag == 1: flag == 1 ? "true" : "false"
        default: description
        }
    }
}
