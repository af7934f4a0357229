import ArgumentParser
import Foundation

/// The `seedgen` command: builds and checks Core Data seed stores.
struct Seedgen: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "seedgen",
        abstract: "Build the default database an app ships with, in Core Data's own SQLite layout, and check stores.",
        discussion: """
            Exit status, for every command: 0 when it did its job (a clean store, stores that hold \
            the same objects); 1 when the data or a store is wrong (an input error, which names \
            file:line:column, a model error, verify's findings, stores that differ, a migration or \
            update refused, a file read and refused for what it holds: not an SQLite database, \
            cut short or damaged); 2 for a usage error or a file that cannot be read or written at \
            all (missing, a directory, no permission, a full disk). Each command's help says what \
            its 0 and 1 mean.
            """,
        version: "0.1.0",
        subcommands: [BuildCommand.self, VerifyCommand.self, FetchCommand.self, InspectCommand.self, DumpCommand.self, HashCommand.self, MigrateCommand.self, DiffCommand.self, InstallCommand.self, UpdateCommand.self]
    )
}

/// Writes a line to standard error.
func printError(_ text: String) {
    FileHandle.standardError.write(Data((text + "\n").utf8))
}

/// Encodes a value as pretty JSON with sorted keys, for `--json` output.
func jsonText<T: Encodable>(_ value: T) throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    return String(decoding: try encoder.encode(value), as: UTF8.self)
}
