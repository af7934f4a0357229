import ArgumentParser
import SeedImport

/// `build --date-format-for Entity.attribute=PATTERN`: a pattern for one attribute.
struct AttributeDatePattern: ExpressibleByArgument {
    /// `Entity.attribute`.
    let attribute: String
    let pattern: DatePatternArgument

    init?(argument: String) {
        guard let equals = argument.firstIndex(of: "="), argument[..<equals].contains("."),
              let pattern = DatePatternArgument(argument: String(argument[argument.index(after: equals)...])) else { return nil }
        attribute = String(argument[..<equals])
        self.pattern = pattern
    }
}
