import ArgumentParser
import SeedImport

/// `build --delimiter`: the character between a CSV file's fields — one ASCII character, or
/// `tab` (also written `\t`).
struct FieldDelimiter: ExpressibleByArgument {
    let scalar: Unicode.Scalar

    init?(argument: String) {
        switch argument {
        case "tab", "\\t", "\t": scalar = "\t"
        default:
            guard argument.unicodeScalars.count == 1, let only = argument.unicodeScalars.first,
                  ImportOptions.canDelimitFields(only) else { return nil }
            scalar = only
        }
    }

    static var defaultValueDescription: String { "," }
}
