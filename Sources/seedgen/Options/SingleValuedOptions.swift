import ArgumentParser

/// Options that take one value. ArgumentParser keeps the last of an option given twice, so
/// `--output a.sqlite --output b.sqlite` would write only b, silently: here it is a usage error.
enum SingleValuedOptions {
    /// Each subcommand's options that take one value (with their short names).
    static let bySubcommand: [String: Set<String>] = [
        "build": ["--model", "--output", "--date-format", "--time-zone", "--entity", "--format", "--delimiter", "--framework-version"],
        "verify": ["--model"],
        "fetch": ["--model", "--entity", "--predicate", "--template", "--limit", "--offset"],
        "dump": ["--model", "--format", "--dates", "--output", "-o"],
        "hash": ["--model"],
        "inspect": [],
        "migrate": ["--model"],
        "diff": ["--model"],
        "update": ["--model", "--seed"],
    ]

    /// Throws when `arguments` (the program's, its name first) give one of the subcommand's
    /// single-valued options twice (`--output=x` counts too; nothing after `--` does).
    static func check(_ arguments: [String]) throws(ValidationError) {
        guard arguments.count > 1, let names = bySubcommand[arguments[1]] else { return }
        var given: Set<String> = []
        var index = 2
        while index < arguments.count, arguments[index] != "--" {
            var name = String(arguments[index].prefix { $0 != "=" })
            if name == "-o" { name = "--output" }
            if names.contains(name) {
                guard given.insert(name).inserted else {
                    throw ValidationError("\(name) is given twice; it takes one value")
                }
                if !arguments[index].contains("=") { index += 1 }  // its value, whatever it looks like
            }
            index += 1
        }
    }
}
