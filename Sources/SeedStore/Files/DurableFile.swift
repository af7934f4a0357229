import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// File operations that survive a crash: fsync of files and directories, atomic rename,
/// and unique temporary names beside a destination.
package enum DurableFile {
    /// A failed file-system call, with the path and `errno` text.
    package struct Failure: Error, Sendable, CustomStringConvertible {
        /// What was being done.
        package var operation: String
        /// The path concerned.
        package var path: String
        /// `errno` when it failed.
        package var code: Int32

        /// A failure of `operation` on `path` with `errno` `code`.
        package init(operation: String, path: String, code: Int32) {
            self.operation = operation
            self.path = path
            self.code = code
        }

        /// `cannot rename /a/b: Permission denied`.
        package var description: String {
            "cannot \(operation) \(path): \(String(cString: strerror(code)))"
        }
    }

    /// Flushes a file's (or a directory's) contents to disk.
    package static func sync(_ path: String) throws(Failure) {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { throw Failure(operation: "open", path: path, code: errno) }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 else { throw Failure(operation: "fsync", path: path, code: errno) }
    }

    /// Renames `source` to `destination` atomically (same directory), then syncs the directory.
    package static func replace(_ destination: String, with source: String) throws(Failure) {
        guard rename(source, destination) == 0 else {
            throw Failure(operation: "rename to", path: destination, code: errno)
        }
        try sync(URL(fileURLWithPath: destination).deletingLastPathComponent().path)
    }

    /// A path for a temporary file in the same directory as `destination`, not yet existing.
    package static func temporaryPath(beside destination: String, purpose: String) -> String {
        let url = URL(fileURLWithPath: destination)
        let name = ".\(url.lastPathComponent).\(purpose)-\(getpid())-\(UInt32.random(in: .min ... .max))"
        return url.deletingLastPathComponent().appendingPathComponent(name).path
    }

    /// Removes a file if it exists, ignoring errors (cleanup paths only).
    package static func removeIfPresent(_ path: String) {
        unlink(path)
    }
}
