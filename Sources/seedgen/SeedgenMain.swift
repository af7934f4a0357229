import ArgumentParser
import Foundation

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
