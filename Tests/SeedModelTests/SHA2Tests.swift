import Foundation
import SeedModel
import Testing

/// SHA-256 and SHA-512 as seedgen computes them (libcrypto on Linux, CryptoKit on Apple
/// platforms) against the published test vectors (FIPS 180-2 and NIST's examples), fed whole,
/// in pieces and through a copied hasher: version hashes, row digests, the content digest and
/// the seal all rest on them.
@Suite("SHA-2")
struct SHA2Tests {
    static func hex<S: Sequence>(_ bytes: S) -> String where S.Element == UInt8 {
        bytes.map { String(format: "%02x", $0) }.joined()
    }

    @Test("SHA-256 of the published vectors", arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        ("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"),
        (String(repeating: "a", count: 1_000_000), "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"),
    ])
    func sha256(_ text: String, _ expected: String) {
        #expect(Self.hex(SHA256.hash(data: Array(text.utf8))) == expected)
        // In pieces of 1, 63 and 64 bytes: the same digest.
        for size in [1, 63, 64] {
            var hasher = SHA256()
            var rest = Array(text.utf8)[...]
            while !rest.isEmpty {
                rest.prefix(size).withUnsafeBytes { hasher.update(bufferPointer: $0) }
                rest = rest.dropFirst(size)
            }
            #expect(Self.hex(hasher.finalize()) == expected, "pieces of \(size)")
        }
    }

    @Test("a copied hasher goes on on its own, and finalizing leaves a hasher as it was")
    func hasherIsAValue() {
        var first = SHA256()
        first.update(data: Array("ab".utf8))
        var second = first
        first.update(data: Array("c".utf8))
        second.update(data: Array("d".utf8))
        #expect(Self.hex(first.finalize()) == Self.hex(SHA256.hash(data: Array("abc".utf8))))
        #expect(Self.hex(first.finalize()) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(Self.hex(second.finalize()) == Self.hex(SHA256.hash(data: Array("abd".utf8))))
        #expect(Self.hex(second.finalize()) != Self.hex(first.finalize()))
    }

    @Test("SHA-512 of the published vectors", arguments: [
        ("abc", "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f"),
        ("", "cf83e1357eefb8bdf1542850d66d8007d620e4050b5715dc83f4a921d36ce9ce47d0d13c5d85f2b0ff8318d2877eec2f63b931bd47417a81a538327af927da3e"),
    ])
    func sha512(_ text: String, _ expected: String) {
        #expect(Self.hex(SHA512.hash(data: Array(text.utf8))) == expected)
    }
}
