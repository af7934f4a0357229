import Crypto
import Foundation

/// SHA-256 (hex) over the bytes of the files a store was built from (the model first, then
/// the inputs in the order given), recorded in the store's metadata.
public enum SourceDigest {
    /// The digest of `files`; each contributes its length and bytes, not its path.
    public static func compute(files: [String]) throws -> String {
        var hasher = SHA256()
        for path in files {
            let data = try Data(contentsOf: URL(fileURLWithPath: path))
            withUnsafeBytes(of: UInt64(data.count).littleEndian) { hasher.update(bufferPointer: $0) }
            hasher.update(data: data)
        }
        return hasher.finalize().map { String(format: "%02x", $0) }.joined()
    }
}
