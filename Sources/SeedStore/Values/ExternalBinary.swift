import Foundation
import SeedModel

/// A Binary attribute that "Allows External Storage" carries a marker byte before every value
/// (Wire's stores, frameworks 641–866, 92 values): `0x01` then the bytes for a value kept in
/// the store; exactly 38 bytes `0x02`, the file's UUID as 36 upper-case ASCII characters and a
/// NUL for a value kept in a file under `.<StoreName>_SUPPORT/_EXTERNAL_DATA/`. Ordinary Binary
/// columns carry no marker. A seed is one file, so seedgen writes every such value inline.
package enum ExternalBinary {
    /// The marker of a value kept in the store.
    package static let inlineMarker: UInt8 = 0x01
    /// The marker of a value kept in an external file.
    package static let externalMarker: UInt8 = 0x02

    /// What a stored value is.
    package enum Stored: Equatable {
        /// The bytes, kept in the store.
        case inline([UInt8])
        /// The name (a UUID) of the external file holding the bytes.
        case external(String)
        /// Neither marker: not a value Core Data wrote.
        case unmarked
    }

    /// The stored form of `bytes`, kept in the store.
    package static func inline(_ bytes: [UInt8]) -> [UInt8] {
        [inlineMarker] + bytes
    }

    /// What a stored value of such an attribute is.
    package static func decode(_ stored: [UInt8]) -> Stored {
        guard let first = stored.first else { return .unmarked }
        if first == inlineMarker { return .inline(Array(stored.dropFirst())) }
        if first == externalMarker, stored.count == 38, stored.last == 0,
           let name = String(bytes: stored[1..<37], encoding: .ascii), StoredUUID.value(name) != nil {
            return .external(name)
        }
        return .unmarked
    }

    /// The data of an inline value without its marker; other values as they are.
    package static func contents(_ stored: [UInt8]) -> [UInt8] {
        if case .inline(let bytes) = decode(stored) { return bytes }
        return stored
    }
}

extension AttributeDescription {
    /// True for a Binary attribute with "Allows External Storage": its values carry the marker.
    package var storesExternalBinaryMarker: Bool {
        type == .binary && allowsExternalBinaryDataStorage
    }
}
