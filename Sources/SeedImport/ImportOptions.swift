/// Choices that apply to a whole import.
public struct ImportOptions: Sendable {
    /// The date pattern for Date attributes whose model `userInfo` names none (default ISO 8601).
    public var datePattern: DatePattern
    /// Patterns for single attributes, by `Entity.attribute`; they win over the model's.
    public var attributeDatePatterns: [String: DatePattern]
    /// Seconds east of UTC for dates written without a zone (default 0: UTC).
    public var timeZoneOffset: Int

    /// The defaults: ISO 8601 dates, UTC.
    public init(datePattern: DatePattern = .iso8601, attributeDatePatterns: [String: DatePattern] = [:], timeZoneOffset: Int = 0) {
        self.datePattern = datePattern
        self.attributeDatePatterns = attributeDatePatterns
        self.timeZoneOffset = timeZoneOffset
    }
}
