import ArgumentParser
import Foundation

/// Ends a command with an exit code and, unless nil, a message on standard error.
struct CommandFailure: Error {
    var message: String?
    var exitCode: Int32

    /// Exit 1: the input or the store is bad.
    static func failed(_ message: String) -> CommandFailure { CommandFailure(message: message, exitCode: 1) }
    /// Exit 2: the command could not do its job as asked (missing file, bad option).
    static func usage(_ message: String) -> CommandFailure { CommandFailure(message: message, exitCode: 2) }
}
