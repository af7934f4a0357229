/// Receives the events of a streamed XML document, one element at a time.
///
/// Implement it to import a format of your own: turn elements into objects and hand them to
/// a repository. Throwing stops the parse; the error is what `XMLStreamReader.parse` throws.
public protocol XMLStreamDelegate: AnyObject {
    /// A start tag. `attributes` is valid only during the call.
    func startElement(_ name: String, attributes: XMLAttributes, at location: InputLocation) throws(InputError)
    /// An end tag.
    func endElement(_ name: String, at location: InputLocation) throws(InputError)
    /// Text content; may come in several pieces for one text node.
    func characters(_ text: String, at location: InputLocation) throws(InputError)
    /// Whether text made only of white space is passed on (false: it is skipped unseen).
    var wantsWhitespaceText: Bool { get }
}

extension XMLStreamDelegate {
    /// Ignores text by default.
    public func characters(_ text: String, at location: InputLocation) throws(InputError) {}
    /// White space between elements is skipped by default.
    public var wantsWhitespaceText: Bool { false }
}
