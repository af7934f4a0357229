/// A string that compares and hashes by its UTF-8 bytes, as the store's unique index compares
/// keys: `Éire` in NFC and in NFD are two (Swift's `String` equality would make them one). Used
/// where the importer keys by names the input gives (identifiers).
struct ByteString: Hashable, Sendable, CustomStringConvertible {
    let string: String

    init(_ string: String) { self.string = string }

    static func == (lhs: ByteString, rhs: ByteString) -> Bool {
        lhs.string.utf8.elementsEqual(rhs.string.utf8)
    }

    func hash(into hasher: inout Hasher) {
        var string = string
        string.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }

    var description: String { string }
}
