import ArgumentParser
import SeedImport

/// `build --time-zone UTC|±HH:MM`: the zone of dates written without one, as seconds east of UTC.
struct TimeZoneOffset: ExpressibleByArgument {
    let seconds: Int

    static let utc = TimeZoneOffset(seconds: 0)

    private init(seconds: Int) {
        self.seconds = seconds
    }

    /// `UTC`, `Z`, `+HH:MM`, `-HHMM`, `+HH`.
    init?(argument: String) {
        if argument == "UTC" || argument == "Z" {
            seconds = 0
            return
        }
        guard let instant = DatePattern.iso8601.secondsSinceReferenceDate("2001-01-01T00:00:00" + argument) else { return nil }
        seconds = -Int(instant)
    }

    /// How `--help` shows the default (an instance requirement of `ExpressibleByArgument`).
    var defaultValueDescription: String { seconds == 0 ? "UTC" : "\(seconds) seconds east of UTC" }
}
