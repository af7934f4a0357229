import Foundation
import SeedModel

/// A SwiftData array value as text: the JSON that source data, a model's initial value and a
/// dump give it by, and what the store holds for that JSON. An array inside a Codable struct
/// (`DeclaredValue.jsonArray`) is stored as the JSON text itself, as SwiftData's encoder wrote
/// it in a real store; a `[String]` (`DeclaredValue.stringArray`) as the keyed archive of its
/// strings (`StringArrayArchive`). Shared by the importer's converter, the defaults and `dump`.
package enum SwiftDataArrayText {
    /// Why JSON text is no value of such an array.
    package enum Refusal: Error, Sendable, Hashable, CustomStringConvertible {
        /// The text does not parse as a JSON array.
        case notAnArray
        /// A `[String]` given an array that holds something other than strings.
        case notStrings
        /// A `[String]` given `StringArrayArchive.unarchivable`, which its archive reads back as nothing.
        case unarchivable

        /// What is wrong, to follow the value in a message.
        package var description: String {
            switch self {
            case .notAnArray: "is not a JSON array"
            case .notStrings: "is not a JSON array of strings"
            case .unarchivable: "holds the string '\(StringArrayArchive.unarchivable)', which the keyed archive SwiftData stores reads back as nothing"
            }
        }
    }

    /// The bytes the store holds for the JSON array `json` of an array of `form`
    /// (`.jsonArray` or `.stringArray`): the text as given, or the strings' archive.
    package static func stored(_ json: some Collection<UInt8>, as form: DeclaredValue) throws(Refusal) -> [UInt8] {
        let data = Data(json)
        // A [String] straight to a list of its strings' bytes (Foundation's objects for a million
        // of them took several times the text's size); the other reader only says what is wrong.
        if form == .stringArray, let strings = try? JSONDecoder().decode(UTF8StringList.self, from: data) {
            guard let archive = StringArrayArchive.archive(strings) else { throw .unarchivable }
            return archive
        }
        guard let array = (try? JSONSerialization.jsonObject(with: data)) as? [Any] else { throw .notAnArray }
        guard form == .stringArray else { return Array(json) }
        guard let strings = array as? [String] else { throw .notStrings }
        guard let archive = StringArrayArchive.archive(strings) else { throw .unarchivable }
        return archive
    }

    /// The JSON text of `stored`, the bytes of an array of `form`, such that `stored(_:as:)`
    /// gives those bytes back; nil when there is none (bytes another writer made, or no array).
    package static func text(of stored: [UInt8], as form: DeclaredValue) -> String? {
        switch form {
        case .jsonArray:
            guard stored.first == UInt8(ascii: "["), (try? JSONSerialization.jsonObject(with: Data(stored))) is [Any] else { return nil }
            return String(validating: stored, as: UTF8.self)
        case .stringArray:
            guard let strings = StringArrayArchive.strings(in: stored), let json = try? JSONSerialization.data(withJSONObject: strings) else { return nil }
            return String(decoding: json, as: UTF8.self)
        case .enumeration:
            return nil
        }
    }
}
