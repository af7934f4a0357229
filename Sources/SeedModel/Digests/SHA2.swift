#if canImport(CryptoKit)
import CryptoKit

/// SHA-256, from CryptoKit on Apple platforms.
package typealias SHA256 = CryptoKit.SHA256
/// SHA-512, from CryptoKit on Apple platforms.
package typealias SHA512 = CryptoKit.SHA512
#else
import Foundation
import SeedgenLibCrypto

/// SHA-256 from the system's libcrypto (Debian's `libssl-dev`), with the part of CryptoKit's
/// API seedgen uses: a hasher that copies as a value, `update`, `finalize`, `hash(data:)`.
/// On Apple platforms the name is CryptoKit's own type. (swift-crypto gave the same API by
/// compiling BoringSSL into every build: most of a clean release build, and into an app that
/// links only the runtime.)
package struct SHA256: @unchecked Sendable {
    private var context = SHA256_CTX()

    /// A hasher over no bytes yet.
    package init() {
        SHA256_Init(&context)
    }

    /// Feeds `bufferPointer`'s bytes.
    package mutating func update(bufferPointer: UnsafeRawBufferPointer) {
        guard let base = bufferPointer.baseAddress, !bufferPointer.isEmpty else { return }
        SHA256_Update(&context, base, bufferPointer.count)
    }

    /// Feeds `data`'s bytes.
    package mutating func update<D: DataProtocol>(data: D) {
        for region in data.regions {
            region.withUnsafeBytes { update(bufferPointer: $0) }
        }
    }

    /// The digest of the bytes fed so far (the hasher itself is left as it was).
    package func finalize() -> Digest {
        var context = context
        var digest = Digest()
        withUnsafeMutableBytes(of: &digest.words) { bytes in
            _ = SHA256_Final(bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), &context)
        }
        return digest
    }

    /// The digest of `data`.
    package static func hash<D: DataProtocol>(data: D) -> Digest {
        var hasher = SHA256()
        hasher.update(data: data)
        return hasher.finalize()
    }

    /// A SHA-256 digest: 32 bytes, held inline (a digest per row costs no allocation).
    package struct Digest: Sequence, Hashable, Sendable {
        fileprivate var words: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)

        /// Its 32 bytes.
        package var bytes: [UInt8] { withUnsafeBytes { Array($0) } }

        package func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
            try Swift.withUnsafeBytes(of: words, body)
        }

        package func makeIterator() -> IndexingIterator<[UInt8]> { bytes.makeIterator() }

        package static func == (lhs: Digest, rhs: Digest) -> Bool { lhs.bytes == rhs.bytes }

        package func hash(into hasher: inout Hasher) { hasher.combine(bytes) }
    }
}

/// SHA-512 from the system's libcrypto: only `hash(data:)`, for the model's hashes digest.
package enum SHA512 {
    /// The 64-byte digest of `data`.
    package static func hash<D: DataProtocol>(data: D) -> [UInt8] {
        var context = SHA512_CTX()
        SHA512_Init(&context)
        for region in data.regions {
            region.withUnsafeBytes { bytes in
                if let base = bytes.baseAddress, !bytes.isEmpty { SHA512_Update(&context, base, bytes.count) }
            }
        }
        var digest = [UInt8](repeating: 0, count: Int(SHA512_DIGEST_LENGTH))
        _ = SHA512_Final(&digest, &context)
        return digest
    }
}
#endif
