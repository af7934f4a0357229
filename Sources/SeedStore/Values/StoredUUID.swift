import Foundation

/// A UUID attribute as Core Data stores it: the 16 bytes in a BLOB.
package enum StoredUUID {
    /// The stored value of a UUID string (any case), or nil when the text is not a UUID.
    package static func value(_ text: String) -> SQLValue? {
        UUID(uuidString: text).map { uuid in .blob(withUnsafeBytes(of: uuid.uuid) { Array($0) }) }
    }

    /// `E621E1F8-C36C-495A-93FC-0C247A3E6E5F` for 16 stored bytes.
    package static func string(_ bytes: [UInt8]) -> String {
        precondition(bytes.count == 16)
        return UUID(uuid: (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                           bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15])).uuidString
    }
}
