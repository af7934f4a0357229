import ArgumentParser
import SeedImport

/// `build --date-format PATTERN`: a date pattern, compiled as it is read; what is wrong with
/// one is said by `BuildCommand.validate()` in the pattern's own words.
struct DatePatternArgument: ExpressibleByArgument {
    let text: String
    /// The pattern, or nil with `problem`.
    let pattern: DatePattern?
    /// What is wrong with the text as a pattern.
    let problem: String?

    init?(argument: String) {
        text = argument
        do throws(DatePattern.PatternError) {
            pattern = argument.isEmpty ? nil : try DatePattern(argument)
            problem = argument.isEmpty ? "needs a pattern, not an empty one" : nil
        } catch {
            pattern = nil
            problem = error.description
        }
    }
}
