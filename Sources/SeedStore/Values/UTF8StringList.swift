import Foundation

/// Strings held as one run of their UTF-8 bytes and the offset each one ends at: a list of a
/// million short strings costs its bytes and 4 bytes a string, not a `String` (16 bytes, and a
/// heap object past 15 bytes) each.
///
/// Strings are compared by their bytes, as SQLite and a binary property list hold them: `"é"`
/// composed and decomposed are two strings here, though Swift's `==` calls them equal.
package struct UTF8StringList: Sendable, Equatable, RandomAccessCollection {
    /// Every string's bytes, one after another.
    package private(set) var bytes: [UInt8] = []
    /// Where each string ends in `bytes`.
    private var ends: [UInt32] = []

    /// The most bytes a list holds: its offsets are 4 bytes.
    package static let maximumByteCount = Int(UInt32.max)

    /// An empty list.
    package init() {}

    /// The list of `strings`; nil past `maximumByteCount` bytes.
    package init?(_ strings: some Sequence<String>) {
        for text in strings {
            guard append(text) else { return nil }
        }
    }

    package var startIndex: Int { 0 }
    package var endIndex: Int { ends.count }

    /// The string at `position`.
    package subscript(position: Int) -> String {
        String(decoding: utf8(at: position), as: UTF8.self)
    }

    /// The bytes of the string at `position`.
    package func utf8(at position: Int) -> ArraySlice<UInt8> {
        bytes[start(of: position)..<Int(ends[position])]
    }

    /// Whether the strings at `first` and `second` have the same bytes.
    package func bytesEqual(_ first: Int, _ second: Int) -> Bool {
        let one = start(of: first), other = start(of: second)
        let count = Int(ends[first]) - one
        guard Int(ends[second]) - other == count else { return false }
        return bytes.withUnsafeBufferPointer { buffer in
            count == 0 || memcmp(buffer.baseAddress! + one, buffer.baseAddress! + other, count) == 0
        }
    }

    /// A hash of the bytes of the string at `position`.
    package func hashValue(at position: Int) -> Int {
        var hasher = Hasher()
        let start = start(of: position), end = Int(ends[position])
        bytes.withUnsafeBytes { hasher.combine(bytes: UnsafeRawBufferPointer(rebasing: $0[start..<end])) }
        return hasher.finalize()
    }

    /// Whether some string has exactly the bytes of `text`.
    package func contains(bytesOf text: String) -> Bool {
        let wanted = Array(text.utf8)
        return indices.contains { utf8(at: $0).elementsEqual(wanted) }
    }

    /// Adds `text` at the end; false (and nothing added) when the list would pass
    /// `maximumByteCount` bytes.
    @discardableResult
    package mutating func append(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { append(utf8: $0) }
    }

    /// Adds the string whose UTF-8 bytes are `utf8` at the end; false (and nothing added) when
    /// the list would pass `maximumByteCount` bytes.
    @discardableResult
    package mutating func append(utf8: UnsafeBufferPointer<UInt8>) -> Bool {
        guard bytes.count + utf8.count <= Self.maximumByteCount else { return false }
        bytes.append(contentsOf: utf8)
        ends.append(UInt32(bytes.count))
        return true
    }

    private func start(of position: Int) -> Int {
        position == 0 ? 0 : Int(ends[position - 1])
    }
}

extension UTF8StringList: Decodable {
    /// Decodes a JSON array of strings straight into the list, with no `[String]` on the way.
    package init(from decoder: any Decoder) throws {
        var container = try decoder.unkeyedContainer()
        self.init()
        while !container.isAtEnd {
            guard append(try container.decode(String.self)) else {
                throw DecodingError.dataCorruptedError(in: container, debugDescription: "more than \(Self.maximumByteCount) bytes of strings")
            }
        }
    }
}
