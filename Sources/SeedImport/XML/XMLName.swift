/// An element's name as libxml2 interns it: one pointer for one name within a parse, so a
/// delegate can tell names apart without a String; `string` is the name (one String per name).
package struct XMLName {
    /// The same for the same name within one parse.
    package let identity: UnsafeRawPointer
    private let reader: Unmanaged<XMLStreamReader>

    init(_ pointer: UnsafePointer<UInt8>, reader: XMLStreamReader) {
        identity = UnsafeRawPointer(pointer)
        self.reader = .passUnretained(reader)
    }

    package var string: String { reader._withUnsafeGuaranteedRef { $0.name(identity.assumingMemoryBound(to: UInt8.self)) } }
}
