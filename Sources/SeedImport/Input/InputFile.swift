import SeedStore
import SystemPackage

/// A source file, opened once for reading and checked on its open descriptor (so the file
/// checked is the file read): a regular file — a directory is a mistake, and a FIFO or a device
/// would block or read without end —, its size, its first bytes for its format
/// (`InputFile+Format`). Every reader reads through it, by swift-system's `FileDescriptor`;
/// closed with its last reference.
package final class InputFile {
    /// The path it was opened by, as messages name it.
    package let path: String
    /// Its size when it was opened.
    package let size: Int
    private let descriptor: FileDescriptor

    /// Opens `path`, or throws the error naming it: missing or unreadable, or no regular file.
    package init(opening path: String) throws(InputError) {
        let location = InputLocation(file: path, line: 0, column: 0)
        do {
            // Not blocking: opening a FIFO would wait for a writer (it is refused below).
            descriptor = try FileDescriptor.open(FilePath(path), .readOnly, options: [.closeOnExec, .nonBlocking])
        } catch Errno.noSuchFileOrDirectory {
            throw InputError("no such readable file", at: location)
        } catch {
            throw InputError("cannot open the file: \(error)", at: location)
        }
        self.path = path
        do {
            let status = try descriptor.stat()
            let kind: FileSystem.Kind = switch status.type {
            case .regular: .regular
            case .directory: .directory
            default: .other
            }
            if let what = kind.notAFile { throw InputError("is \(what), not a source file", at: location) }
            size = Int(status.size)
        } catch let error as InputError {
            try? descriptor.close()
            throw error
        } catch {
            try? descriptor.close()
            throw InputError("cannot read the file: \(error)", at: location)
        }
    }

    deinit {
        try? descriptor.close()
    }

    /// Reads the next bytes into `buffer` (retried when interrupted); 0 at the end of the file.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws(InputError) -> Int {
        do {
            return try descriptor.read(into: buffer)
        } catch {
            throw InputError("cannot read the file: \(error)", at: InputLocation(file: path, line: 0, column: 0))
        }
    }

    /// The first `count` bytes (fewer in a shorter file), read without moving the file's offset.
    func head(_ count: Int) throws(InputError) -> [UInt8] {
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
