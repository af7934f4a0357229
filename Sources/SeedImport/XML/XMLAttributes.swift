/// The attributes of one start tag, read in place from libxml2's buffer.
///
/// Valid only during the `startElement` call that received it; copy out what you keep.
public struct XMLAttributes {
    /// libxml2's SAX2 layout: five pointers per attribute (localname, prefix, URI, value, end).
    let base: UnsafePointer<UnsafePointer<UInt8>?>?
    /// The number of attributes.
    public let count: Int

    /// The local name of attribute `index`.
    public func name(at index: Int) -> String {
        String(cString: base![index * 5]!)
    }

    /// The namespace URI of attribute `index`; nil for a name without a prefix.
    package func namespace(at index: Int) -> String? {
        base![index * 5 + 2].map { String(cString: $0) }
    }

    /// Whether attribute `index` has a namespace (no String made).
    package func hasNamespace(at index: Int) -> Bool {
        base![index * 5 + 2] != nil
    }

    /// An identity for attribute `index`'s name, equal for equal names within one parse
    /// (libxml2 interns names), so delegates can cache what a name means without a String.
    public func nameIdentity(at index: Int) -> UnsafeRawPointer {
        UnsafeRawPointer(base![index * 5]!)
    }

    /// The bytes of attribute `index`'s value as libxml2 holds them: every `&` as `&#38;`
    /// (`withValueBytes` decodes them).
    package func rawValueBytes(at index: Int) -> UnsafeBufferPointer<UInt8> {
        let start = base![index * 5 + 3]!
        return UnsafeBufferPointer(start: start, count: base![index * 5 + 4]! - start)
    }

    /// The bytes of attribute `index`'s value (entities replaced), without copying when possible.
    public func withValueBytes<T, E: Error>(at index: Int, _ body: (UnsafeBufferPointer<UInt8>) throws(E) -> T) throws(E) -> T {
        let raw = rawValueBytes(at: index)
        guard raw.contains(UInt8(ascii: "&")) else { return try body(raw) }
        // Without entity substitution libxml2 hands every `&` back as `&#38;` (and only `&`).
        var decoded: [UInt8] = []
        decoded.reserveCapacity(raw.count)
        var position = 0
        while position < raw.count {
            if raw[position] == UInt8(ascii: "&"), raw.count - position >= 5,
               Array(raw[position..<position + 5]) == Self.escapedAmpersand {
                decoded.append(UInt8(ascii: "&"))
                position += 5
            } else {
                decoded.append(raw[position])
                position += 1
            }
        }
        return try decoded.withUnsafeBufferPointer { buffer in Result { () throws(E) in try body(buffer) } }.get()
    }

    private static let escapedAmpersand = Array("&#38;".utf8)

    /// The value of attribute `index`.
    public func value(at index: Int) -> String {
        withValueBytes(at: index) { String(decoding: $0, as: UTF8.self) }
    }

    /// The value of the attribute with this local name.
    public subscript(name: String) -> String? {
        (0..<count).first { self.name(at: $0) == name }.map { value(at: $0) }
    }
}
