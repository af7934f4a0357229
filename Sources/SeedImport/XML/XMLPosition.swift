/// Where the reader is, read from libxml2 only when asked: the line and column alone (cheap), or
/// the whole location with the file (for a message, or a place kept with an object).
package struct XMLPosition {
    /// The reader, which outlives every event it reports (read without a retain).
    private let reader: Unmanaged<XMLStreamReader>

    init(reader: XMLStreamReader) {
        self.reader = .passUnretained(reader)
    }

    package var line: Int { reader._withUnsafeGuaranteedRef { $0.line } }
    package var column: Int { reader._withUnsafeGuaranteedRef { $0.column } }
    package var location: InputLocation { reader._withUnsafeGuaranteedRef { $0.location } }
}
