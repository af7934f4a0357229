import Foundation
import SystemPackage

/// File operations that survive a crash: fsync of files and directories, atomic rename,
/// and unique temporary names beside a destination.
package enum DurableFile {
    /// A failed file-system call, with the path and the `Errno` it failed with.
    package struct Failure: Error, Sendable, CustomStringConvertible {
        /// What was being done.
        package var operation: String
        /// The path concerned.
        package var path: String
        /// Why the call failed.
        package var errno: Errno

        /// A failure of `operation` on `path`.
        package init(operation: String, path: String, errno: Errno) {
            self.operation = operation
            self.path = path
            self.errno = errno
        }

        /// `cannot rename /a/b: Permission denied`.
        package var description: String {
            "cannot \(operation) \(path): \(errno.description)"
        }
    }

    /// Runs a file-system call on `path`; its failure becomes a `Failure` naming `operation`.
    package static func attempt<Result>(_ operation: String, _ path: String, _ body: () throws -> Result) throws(Failure) -> Result {
        do {
            return try body()
        } catch {
            throw Failure(operation: operation, path: path, errno: error as? Errno ?? .ioError)
        }
    }

    /// Opens `path` (close-on-exec); a failure names `operation`.
    package static func open(_ path: String, _ mode: FileDescriptor.AccessMode, options: FileDescriptor.OpenOptions = [],
                             permissions: FilePermissions? = nil, for operation: String) throws(Failure) -> FileDescriptor {
        try attempt(operation, path) { try FileDescriptor.open(path, mode, options: options.union(.closeOnExec), permissions: permissions) }
    }

    /// Flushes a file's (or a directory's) contents to disk.
    package static func sync(_ path: String) throws(Failure) {
        let descriptor = try open(path, .readOnly, for: "open")
        defer { try? descriptor.close() }
        try attempt("fsync", path) { try FileSystem.sync(descriptor) }
    }

    /// Renames `source` to `destination` atomically (same directory), then syncs the directory.
    package static func replace(_ destination: String, with source: String) throws(Failure) {
        do {
            try FileSystem.rename(source, to: destination)
        } catch {
            throw Failure(operation: "rename to", path: destination, errno: error)
        }
        try sync(URL(fileURLWithPath: destination).deletingLastPathComponent().path)
    }

    /// A path for a temporary file in the same directory as `destination`, not yet existing.
    package static func temporaryPath(beside destination: String, purpose: String) -> String {
        let url = URL(fileURLWithPath: destination)
        let name = ".\(url.lastPathComponent).\(purpose)-\(FileSystem.processID)-\(UInt32.random(in: .min ... .max))"
        return url.deletingLastPathComponent().appendingPathComponent(name).path
    }

    /// Removes a file if it exists, ignoring errors (cleanup paths only).
    package static func removeIfPresent(_ path: String) {
        try? FileSystem.unlink(path)
    }
}
