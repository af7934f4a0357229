import Foundation

/// The bytes fed to one SHA-256.
struct HashInput {
    var bytes: [UInt8] = []

    mutating func append(_ string: String) { bytes += Array(string.utf8) }
    mutating func append(_ data: [UInt8]) { bytes += data }
    mutating func append(_ value: UInt8) { bytes.append(value) }
    mutating func append(_ value: UInt16) { withUnsafeBytes(of: value.littleEndian) { bytes += $0 } }
    mutating func append(_ value: UInt32) { withUnsafeBytes(of: value.littleEndian) { bytes += $0 } }

    func sha256() -> [UInt8] { Array(SHA256.hash(data: bytes)) }
}
