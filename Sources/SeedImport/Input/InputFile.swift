import SeedStore
import SystemPackage

/// A source file, opened for reading and checked on its open descriptor (so the file checked
/// is the file read): a regular file — a directory is a mistake, and a FIFO or a device would
/// block or read without end —, its size, its first bytes for its format (`InputFile+Format`).
/// Every reader reads through it, by swift-system's `FileDescriptor`; closed with its last
/// reference. One that is set aside (`setAside()`: a build of more inputs than may be open at
/// once) is opened again when it is read, and must then be the same file (device and inode).
package final class InputFile {
    /// The path it was opened by, as messages name it.
    package let path: String
    /// Its size when it was opened.
    package let size: Int
    /// The open file; nil while set aside.
    @exclusivity(unchecked) private var descriptor: FileDescriptor?
    /// Which file it is (device and inode), to know it again when it is opened again.
    private let identity: (device: UInt64, inode: UInt64)

    /// Opens `path`, or throws the error naming it: missing or unreadable, or no regular file.
    package init(opening path: String) throws(InputError) {
        self.path = path
        let (descriptor, status) = try Self.open(path)
        self.descriptor = descriptor
        size = Int(status.size)
        identity = Self.identity(of: status)
    }

    deinit {
        try? descriptor?.close()
    }

    /// Closes the file until it is read: `seedgen build` checks every input before it builds,
    /// and keeps only so many open at once.
    package func setAside() {
        try? descriptor?.close()
        descriptor = nil
    }

    /// Opens `path` and checks what the descriptor names: a regular file.
    private static func open(_ path: String) throws(InputError) -> (FileDescriptor, Stat) {
        let location = InputLocation(file: path, line: 0, column: 0)
        let descriptor: FileDescriptor
        do {
            // Not blocking: opening a FIFO would wait for a writer (it is refused below).
            descriptor = try FileDescriptor.open(FilePath(path), .readOnly, options: [.closeOnExec, .nonBlocking])
        } catch Errno.noSuchFileOrDirectory {
            throw InputError("no such readable file", at: location)
        } catch {
            throw InputError("cannot open the file: \(error)", at: location)
        }
        do {
            let status = try descriptor.stat()
            if let what = FileSystem.Kind(status.type).notAFile { throw InputError("is \(what), not a source file", at: location) }
            return (descriptor, status)
        } catch let error as InputError {
            try? descriptor.close()
            throw error
        } catch {
            try? descriptor.close()
            throw InputError("cannot read the file: \(error)", at: location)
        }
    }

    /// Which file `status` describes: its device and inode.
    private static func identity(of status: Stat) -> (device: UInt64, inode: UInt64) {
        (UInt64(truncatingIfNeeded: status.deviceID.rawValue), UInt64(truncatingIfNeeded: status.inode.rawValue))
    }

    /// The open file: opened again when it was set aside, and then the same file as checked.
    private func opened() throws(InputError) -> FileDescriptor {
        if let descriptor { return descriptor }
        let (descriptor, status) = try Self.open(path)
        guard Self.identity(of: status) == identity else {
            try? descriptor.close()
            throw InputError("was replaced by another file after it was checked", at: InputLocation(file: path, line: 0, column: 0))
        }
        self.descriptor = descriptor
        return descriptor
    }

    /// Opens the file again if it was set aside (`read` would), so that another thread may read it.
    func prepareToRead() throws(InputError) {
        _ = try opened()
    }

    /// Reads the next bytes into `buffer` (retried when interrupted); 0 at the end of the file.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws(InputError) -> Int {
        let descriptor = try opened()
        do {
            return try descriptor.read(into: buffer)
        } catch {
            throw InputError("cannot read the file: \(error)", at: InputLocation(file: path, line: 0, column: 0))
        }
    }

    /// The first `count` bytes (fewer in a shorter file), read without moving the file's offset.
    func head(_ count: Int) throws(InputError) -> [UInt8] {
        let descriptor = try opened()
        do {
            return try [UInt8](unsafeUninitializedCapacity: count) { buffer, read in
                read = try descriptor.read(fromAbsoluteOffset: 0, into: UnsafeMutableRawBufferPointer(buffer))
            }
        } catch {
            throw InputError("cannot read the file: \(error)", at: InputLocation(file: path, line: 0, column: 0))
        }
    }

    /// The whole file from its current offset, in one array of at most `limit` bytes.
    func readAll(limit: Int) throws(InputError) -> [UInt8] {
        guard size < limit else {
            throw InputError("the file holds \(size) bytes; at most \(limit) are read whole", at: InputLocation(file: path, line: 0, column: 0))
        }
        var bytes = [UInt8](repeating: 0, count: size)
        var count = 0
        while count < size {
            let read = try bytes.withUnsafeMutableBytes { buffer in
                Result { () throws(InputError) in try self.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[count...])) }
            }.get()
            if read == 0 { break }
            count += read
        }
        bytes.removeLast(bytes.count - count)
        return bytes
    }
}
