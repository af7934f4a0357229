import SystemPackage
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The few file-system calls swift-system does not offer (fsync, flock, link, rename, unlink),
/// in one place: each retries when interrupted and throws the `Errno` it failed with. Reads,
/// writes and opens use swift-system's `FileDescriptor` directly.
package enum FileSystem {
    /// Flushes a file's (or a directory's) contents to stable storage: on Apple platforms `fsync`
    /// stops at the drive's cache, so `fcntl(F_FULLFSYNC)` is asked first and `fsync` is the
    /// fallback where the file system refuses it (as SQLite's own `fullfsync` does). With
    /// `toStableStorage` false, `fsync` alone: the pages are handed to the drive, which is all a
    /// first sync before a last one needs.
    package static func sync(_ descriptor: FileDescriptor, toStableStorage: Bool = true) throws(Errno) {
        #if canImport(Darwin)
        if toStableStorage { return try sync(descriptor.rawValue, full: { fcntl($0, F_FULLFSYNC) }, plain: systemSync) }
        #endif
        try sync(descriptor.rawValue, full: nil, plain: systemSync)
    }

    /// `full`, retried when interrupted; on any other failure of it, or without it, `plain`.
    static func sync(_ descriptor: Int32, full: ((Int32) -> Int32)?, plain: (Int32) -> Int32) throws(Errno) {
        if let full {
            while full(descriptor) != 0 {
                guard Errno(rawValue: errno) == .interrupted else { return try retrying { plain(descriptor) } }
            }
            return
        }
        try retrying { plain(descriptor) }
    }

    /// Waits for the exclusive advisory lock on an open file.
    package static func lockExclusively(_ descriptor: FileDescriptor) throws(Errno) {
        try retrying { flock(descriptor.rawValue, LOCK_EX) }
    }

    /// Releases an advisory lock.
    package static func unlock(_ descriptor: FileDescriptor) {
        _ = flock(descriptor.rawValue, LOCK_UN)
    }

    /// A new name for a file; fails with `.fileExists` rather than replace anything.
    package static func link(_ existing: String, to new: String) throws(Errno) {
        try retrying { systemLink(existing, new) }
    }

    /// Renames atomically, replacing what `new` named.
    package static func rename(_ old: String, to new: String) throws(Errno) {
        try retrying { systemRename(old, new) }
    }

    /// Removes a name.
    package static func unlink(_ path: String) throws(Errno) {
        try retrying { systemUnlink(path) }
    }

    /// Creates a directory and its missing ancestors (permissions 0755); an existing directory is fine.
    package static func makeDirectories(_ path: String) throws(Errno) {
        var prefix = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/") {
            prefix += "/" + component
            do {
                try retrying { mkdir(prefix, 0o755) }
            } catch where error == .fileExists {
                continue  // a file in the way shows as .notADirectory at the next step, or below
            }
        }
        var status = stat()
        try retrying { stat(path, &status) }
        guard status.st_mode & S_IFMT == S_IFDIR else { throw .notDirectory }
    }

    /// What a path names (after symbolic links), without opening it: opening a FIFO blocks.
    package enum Kind: Equatable {
        case missing, regular, directory, other

        /// The kind of a file of this type (as `stat` gives it: after symbolic links).
        package init(_ type: FileType) {
            switch type {
            case .regular: self = .regular
            case .directory: self = .directory
            default: self = .other
            }
        }

        /// What a path that is no file is, in words (`a directory`); nil for a regular file or nothing.
        package var notAFile: String? {
            switch self {
            case .directory: "a directory"
            case .other: "not a regular file (a FIFO, socket or device)"
            case .missing, .regular: nil
            }
        }
    }

    /// What `path` names.
    package static func kind(of path: String) -> Kind {
        guard let status = try? FilePath(path).stat() else { return .missing }
        return Kind(status.type)
    }

    /// Whether a process with this id exists (one this process may not signal counts too).
    package static func isRunning(_ pid: Int32) -> Bool {
        kill(pid, 0) == 0 || errno == EPERM
    }

    /// This process's id (for names of temporary files).
    package static var processID: Int32 { getpid() }

    private static func retrying(_ call: () -> Int32) throws(Errno) {
        while call() != 0 {
            let code = Errno(rawValue: errno)
            guard code == .interrupted else { throw code }
        }
    }
}

// The C calls, under names that `FileSystem`'s own methods do not shadow.
private func systemSync(_ descriptor: Int32) -> Int32 { fsync(descriptor) }
private func systemLink(_ existing: String, _ new: String) -> Int32 { link(existing, new) }
private func systemRename(_ old: String, _ new: String) -> Int32 { rename(old, new) }
private func systemUnlink(_ path: String) -> Int32 { unlink(path) }
