import Dispatch
import SeedStore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Ctrl-C (SIGINT) or SIGTERM while a command writes a new file: the command's own temporaries
/// beside that file (its scratch database, its copy and their journals) are removed, then the
/// process exits with 128 + the signal's number, as a shell expects. Without it the next run
/// would remove them (they are a dead process's); with it nothing is left even until then.
enum Interrupts {
    /// Watches SIGINT and SIGTERM until the returned sources are released.
    static func removingTemporaries(beside destination: String, purposes: [String]) -> [DispatchSourceSignal] {
        [SIGINT, SIGTERM].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                DurableFile.removeOwnTemporaries(beside: destination, purposes: purposes)
                _exit(128 + number)
            }
            source.resume()
            return source
        }
    }
}
