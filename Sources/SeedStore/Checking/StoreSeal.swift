import Foundation
import SeedModel
import SystemPackage

/// A seed's `Z_UUID` doubles as a seal over the file's bytes, so that an installer can prove a
/// copy is exactly what `seedgen` wrote by reading it once.
///
/// The file is read with the `Z_UUID` text replaced by the nil UUID. Scheme `sha256-pieces-v2`
/// (written now): SHA-256 of each 4 MiB piece, on two threads, then SHA-256 over the file's
/// length and the pieces' digests in order; scheme `sha256-file-v1` (seeds written before):
/// SHA-256 over the whole file. The seal is the first 16 bytes, as a version 8 (custom) UUID; the
/// metadata key `org.seedgen.seal` names the scheme. `quick_check` plus the content digest would
/// cost about 2 s on a 100 MB seed; hashing its bytes costs well under a tenth of that, and on
/// two threads it stays within the time the copy's fsync takes.
///
/// A store that was changed after seedgen wrote it no longer matches its seal; the runtime
/// removes the key on its first write.
package enum StoreSeal {
    /// The value of `org.seedgen.seal` on the stores seedgen writes now.
    package static let scheme = StoreMetadata.sealScheme
    /// The scheme of seeds written before the pieces: one SHA-256 over the whole file.
    package static let wholeFileScheme = "sha256-file-v1"
    /// Every scheme a seal may name.
    package static let schemes: Set<String> = [scheme, wholeFileScheme]
    /// The piece size of `sha256-pieces-v2`.
    static let pieceSize = 4 << 20
    /// What `Z_UUID` holds while the file is hashed.
    static let placeholder = Array("00000000-0000-0000-0000-000000000000".utf8)

    /// What checking a store's seal found.
    package enum State: Sendable, Equatable {
        /// The file's bytes are exactly the sealed ones.
        case intact
        /// The store carries no seal (written by Core Data, or changed by an app since).
        case unsealed
        /// The bytes differ from the sealed ones: the file was damaged or edited.
        case broken(expected: String, found: String)
    }

    /// Where the `Z_UUID` text lies: in the root page of `Z_METADATA` (the row is small and
    /// the UUID is its first text, so it is never on an overflow page).
    static func fieldOffset(of uuid: String, in path: String, database: Database) throws -> Int? {
        guard let pageSize = try database.scalar("PRAGMA page_size")?.integer,
              let root = try database.scalar("SELECT rootpage FROM sqlite_master WHERE type = 'table' AND name = 'Z_METADATA'")?.integer,
              root >= 1 else { return nil }
        let descriptor = try DurableFile.open(path, .readOnly, for: "read")
        defer { try? descriptor.close() }
        let start = Int(root - 1) * Int(pageSize)
        let page = try DurableFile.attempt("read", path) {
            try [UInt8](unsafeUninitializedCapacity: Int(pageSize)) { buffer, count in
                count = try descriptor.read(fromAbsoluteOffset: Int64(start), into: UnsafeMutableRawBufferPointer(buffer))
            }
        }
        let needle = Array(uuid.utf8)
        var found: [Int] = []
        if page.count >= needle.count {
            for index in 0...(page.count - needle.count) where page[index] == needle[0] && page[index..<index + needle.count].elementsEqual(needle) {
                found.append(index)
            }
        }
        return found.count == 1 ? start + found[0] : nil
    }

    /// The seal of the file at `path` with the `Z_UUID` text at `fieldOffset`, in `scheme`.
    static func compute(path: String, fieldOffset: Int, scheme: String) throws -> String {
        scheme == wholeFileScheme ? try computeWholeFile(path: path, fieldOffset: fieldOffset)
            : try computePieces(path: path, fieldOffset: fieldOffset)
    }

    /// `sha256-pieces-v2`: the pieces are hashed by two threads, each reading its own with `pread`.
    static func computePieces(path: String, fieldOffset: Int) throws -> String {
        let descriptor = try DurableFile.open(path, .readOnly, for: "read")
        defer { try? descriptor.close() }
        let size = Int(try DurableFile.attempt("read", path) { try descriptor.seek(offset: 0, from: .end) })
        let pieces = PieceDigests(count: max(1, (size + pieceSize - 1) / pieceSize))
        let field = fieldOffset..<(fieldOffset + placeholder.count)
        DispatchQueue.concurrentPerform(iterations: 2) { worker in
            // 1 MiB reads within a piece: two threads cost 2 MiB of buffers.
            let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
            defer { buffer.deallocate() }
            for index in stride(from: worker, to: pieces.count, by: 2) where pieces.failure == nil {
                let start = index * pieceSize
                let end = min(start + pieceSize, size)
                do {
                    var hasher = SHA256()
                    var position = start
                    while position < end {
                        let wanted = UnsafeMutableRawBufferPointer(rebasing: buffer[0..<min(buffer.count, end - position)])
                        let count = try descriptor.read(fromAbsoluteOffset: Int64(position), into: wanted)
                        guard count > 0 else { throw Errno.ioError }  // the file shrank while it was read
                        for offset in field.clamped(to: position..<(position + count)) {
                            buffer[offset - position] = placeholder[offset - field.lowerBound]
                        }
                        hasher.update(bufferPointer: UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
                        position += count
                    }
                    pieces.set(index, hasher.finalize())
                } catch {
                    pieces.fail(DurableFile.Failure(operation: "read", path: path, errno: error as? Errno ?? .ioError))
                }
            }
        }
        if let failure = pieces.failure { throw failure }
        var hasher = SHA256()
        withUnsafeBytes(of: UInt64(size).littleEndian) { hasher.update(bufferPointer: $0) }
        pieces.feed(&hasher)
        return uuid(from: Array(hasher.finalize()))
    }

    /// `sha256-file-v1`: one SHA-256 over the whole file.
    static func computeWholeFile(path: String, fieldOffset: Int) throws -> String {
        let descriptor = try DurableFile.open(path, .readOnly, for: "read")
        defer { try? descriptor.close() }
        var hasher = SHA256()
        let field = fieldOffset..<(fieldOffset + placeholder.count)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
        defer { buffer.deallocate() }
        var position = 0
        while true {
            let count = try DurableFile.attempt("read", path) { try descriptor.read(into: buffer) }
            if count == 0 { break }
            let chunk = position..<(position + count)
            // Put the placeholder where the UUID text is, for the part in this chunk.
            let overlap = field.clamped(to: chunk)
            for offset in overlap {
                buffer[offset - position] = placeholder[offset - field.lowerBound]
            }
            hasher.update(bufferPointer: UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
            position += count
        }
        return uuid(from: Array(hasher.finalize()))
    }

    /// A version 8 UUID (RFC 9562) from the first 16 bytes of a digest.
    static func uuid(from digest: [UInt8]) -> String {
        var bytes = Array(digest.prefix(16))
        bytes[6] = (bytes[6] & 0x0F) | 0x80
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        return UUID(uuid: (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                           bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15])).uuidString
    }

    /// Seals a finished store whose `Z_UUID` holds the placeholder: hashes it and writes the
    /// seal in place (same length, so no byte moves). The caller syncs the file afterwards.
    static func seal(path: String, scheme: String = scheme) throws {
        let placeholderText = String(decoding: placeholder, as: UTF8.self)
        let offset: Int? = try {
            let database = try Database(path: path, mode: .readOnly, immutable: true)
            return try fieldOffset(of: placeholderText, in: path, database: database)
        }()
        guard let offset else {
            throw SealError(description: "\(path): the Z_UUID placeholder is not in the Z_METADATA root page")
        }
        let seal = try compute(path: path, fieldOffset: offset, scheme: scheme)
        let descriptor = try DurableFile.open(path, .writeOnly, for: "open")
        defer { try? descriptor.close() }
        // writeAll loops over short writes, so a partial write is never mistaken for success.
        _ = try DurableFile.attempt("write", path) { try descriptor.writeAll(toAbsoluteOffset: Int64(offset), Array(seal.utf8)) }
    }

    /// Sealing failed for a reason other than I/O.
    struct SealError: Error, CustomStringConvertible {
        var description: String
    }

    /// Checks the seal of the store at `path` (opened read-only, never changed).
    package static func check(path: String) throws -> State {
        let file = try StoreFile(path: path)
        guard let row = try file.database.metadataRow(), let uuid = row.uuid, let plist = row.plist,
              let scheme = (try? StoreMetadata(decoding: plist))?.seal, schemes.contains(scheme) else {
            return .unsealed
        }
        return try check(path: path, uuid: uuid, scheme: scheme, database: file.database)
    }

    /// Checks the seal `uuid` in `scheme` of a sealed store, open on `database`.
    static func check(path: String, uuid: String, scheme: String, database: Database) throws -> State {
        guard let offset = try fieldOffset(of: uuid, in: path, database: database) else {
            return .broken(expected: uuid, found: "no Z_UUID text in the Z_METADATA root page")
        }
        let found = try compute(path: path, fieldOffset: offset, scheme: scheme)
        return found == uuid ? .intact : .broken(expected: uuid, found: found)
    }
}
