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
        /// Why, in words, when `errno`'s own text would not say it well.
        package var reason: String?

        /// A failure of `operation` on `path`.
        package init(operation: String, path: String, errno: Errno, reason: String? = nil) {
            self.operation = operation
            self.path = path
            self.errno = errno
            self.reason = reason
        }

        /// `cannot rename /a/b: Permission denied`.
        package var description: String {
            "cannot \(operation) \(path): \(reason ?? errno.description)"
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

    /// Flushes a file's (or a directory's) contents to stable storage (`FileSystem.sync`); with
    /// `toStableStorage` false, only to the drive (a first sync that a last one completes).
    package static func sync(_ path: String, toStableStorage: Bool = true) throws(Failure) {
        let descriptor = try open(path, .readOnly, for: "open")
        defer { try? descriptor.close() }
        try attempt("fsync", path) { try FileSystem.sync(descriptor, toStableStorage: toStableStorage) }
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

    /// What a temporary name adds to the destination's name, at most (`.` + `.seedgen-scratch-` + pid + random).
    static let temporaryNameOverhead = 48

    /// Throws unless `destination` can take a new file: nothing there or a regular file (never
    /// a directory, a FIFO or a device), with a name short enough for the temporaries beside it.
    package static func requireWritableDestination(_ destination: String) throws(Failure) {
        let kind = FileSystem.kind(of: destination)
        if let what = kind.notAFile {
            throw Failure(operation: "write", path: destination, errno: kind == .directory ? .isDirectory : .invalidArgument,
                          reason: "it is \(what); seedgen replaces only regular files")
        }
        let name = URL(fileURLWithPath: destination).lastPathComponent
        if name.utf8.count + temporaryNameOverhead > 255 {
            throw Failure(operation: "write", path: destination, errno: .fileNameTooLong,
                          reason: "the file name is \(name.utf8.count) bytes; with the temporary name seedgen writes beside it first, at most \(255 - temporaryNameOverhead) fit")
        }
    }

    /// A path for a temporary file in the same directory as `destination`, not yet existing.
    package static func temporaryPath(beside destination: String, purpose: String) -> String {
        let url = URL(fileURLWithPath: destination)
        let name = ".\(url.lastPathComponent).\(purpose)-\(FileSystem.processID)-\(UInt32.random(in: .min ... .max))"
        return url.deletingLastPathComponent().appendingPathComponent(name).path
    }

    /// Removes what dead processes left beside `destination`: temporaries named
    /// `.<name>.<purpose>-<pid>-<n>` (and their `-journal`) for one of `purposes`, whose process
    /// is gone. A live process's files, and files of a process this one cannot see, are kept.
    /// Returns the paths removed.
    @discardableResult
    package static func removeDeadTemporaries(beside destination: String, purposes: [String]) -> [String] {
        removeTemporaries(beside: destination, purposes: purposes) { !FileSystem.isRunning($0) }
    }

    /// Removes this process's own temporaries beside `destination` (a command interrupted by a
    /// signal, on its way out); returns the paths removed.
    @discardableResult
    package static func removeOwnTemporaries(beside destination: String, purposes: [String]) -> [String] {
        removeTemporaries(beside: destination, purposes: purposes) { $0 == FileSystem.processID }
    }

    /// Removes the temporaries beside `destination` for one of `purposes` whose process id
    /// `owner` accepts.
    private static func removeTemporaries(beside destination: String, purposes: [String], owner: (Int32) -> Bool) -> [String] {
        let url = URL(fileURLWithPath: destination)
        let directory = url.deletingLastPathComponent()
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        var removed: [String] = []
        for name in names.sorted() {
            for purpose in purposes {
                let prefix = ".\(url.lastPathComponent).\(purpose)-"
                guard name.hasPrefix(prefix) else { continue }
                let rest = name.dropFirst(prefix.count)
                guard let pid = rest.split(separator: "-").first.flatMap({ Int32($0) }), pid > 0, owner(pid) else { continue }
                let path = directory.appendingPathComponent(name).path
                if (try? FileSystem.unlink(path)) != nil { removed.append(path) }
            }
        }
        return removed
    }

    /// Removes a file if it exists, ignoring errors (cleanup paths only).
    package static func removeIfPresent(_ path: String) {
        try? FileSystem.unlink(path)
    }
}
