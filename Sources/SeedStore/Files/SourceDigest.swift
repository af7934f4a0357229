import Foundation
import SeedModel
import SystemPackage

/// SHA-256 (hex) over the bytes of the files a store was built from (the model first, then
/// the inputs in the order given), recorded in the store's metadata. Streams each file in
/// 1 MiB chunks, so memory stays flat for large inputs.
package enum SourceDigest {
    /// The digest of `files`; each contributes its length and bytes, not its path.
    package static func compute(files: [String]) throws -> String {
        var hasher = SHA256()
        for path in files {
            try feed(&hasher, fileAt: path, withLength: true)
        }
        return hex(hasher)
    }

    /// Feeds a file's bytes (after its length, when asked) to `hasher`, 1 MiB at a time.
    static func feed(_ hasher: inout SHA256, fileAt path: String, withLength: Bool) throws {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw DurableFile.Failure(operation: "read", path: path, errno: .noSuchFileOrDirectory)
        }
        defer { try? handle.close() }
        if withLength {
            let size = try handle.seekToEnd()
            try handle.seek(toOffset: 0)
            withUnsafeBytes(of: size.littleEndian) { hasher.update(bufferPointer: $0) }
        }
        while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty {
            hasher.update(data: chunk)
        }
    }

    /// The digest in lower-case hex.
    static func hex(_ hasher: SHA256) -> String {
        hasher.finalize().map { String(format: "%02x", $0) }.joined()
    }
}
