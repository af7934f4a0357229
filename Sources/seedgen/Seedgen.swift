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
            update refused); 2 for a usage error or a file that cannot be read (missing, a \
            directory, not a store SQLite can open). Each command's help says what its 0 and 1 mean.
            """,
        version: "0.1.0",
        subcommands: [BuildCommand.self, VerifyCommand.self, FetchCommand.self, InspectCommand.self, DumpCommand.self, HashCommand.self, MigrateCommand.self, DiffCommand.self, UpdateCommand.self]
    )
}

/// Ends a command with an exit code and, unless nil, a message on standard error.
struct CommandFailure: Error {
    var message: String?
    var exitCode: Int32

    /// Exit 1: the input or the store is bad.
    static func failed(_ message: String) -> CommandFailure { CommandFailure(message: message, exitCode: 1) }
    /// Exit 2: the command could not do its job as asked (missing file, bad option).
    static func usage(_ message: String) -> CommandFailure { CommandFailure(message: message, exitCode: 2) }
}

/// Exit codes: 0 success, 1 failure or findings, 2 usage errors (ArgumentParser's 64 becomes 2).
/// Every error is one style on standard error: `seedgen: error: <what>` (warnings `seedgen: warning: …`).
@main
enum SeedgenMain {
    static func main() {
        PeakMemory.reportAtExitIfAsked()
        do {
            try SingleValuedOptions.check(CommandLine.arguments)
            var command = try Seedgen.parseAsRoot()
            try command.run()
        } catch let failure as CommandFailure {
            if let message = failure.message { printError("seedgen: error: \(message)") }
            exit(failure.exitCode)
        } catch {
            let code = Seedgen.exitCode(for: error)
            if code == .success {
                print(Seedgen.fullMessage(for: error))
                exit(0)
            }
            if code == .validationFailure {
                // ArgumentParser's "Error: …" (and its usage lines) in the one style of every error.
                let message = Seedgen.fullMessage(for: error)
                printError(message.hasPrefix("Error: ") ? "seedgen: error: " + message.dropFirst(7) : message)
                exit(2)
            }
            printError("seedgen: error: \(error)")
            exit(1)
        }
    }
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
