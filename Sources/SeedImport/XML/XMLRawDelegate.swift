/// A delegate that takes element names as libxml2's interned pointers and character data as
/// the bytes libxml2 hands over (no String per event) and the reader's position instead of a
/// location (no location per event).
package protocol XMLRawDelegate: XMLStreamDelegate {
    func startElement(_ name: XMLName, attributes: XMLAttributes, at position: XMLPosition) throws(InputError)
    func endElement(_ name: XMLName, at position: XMLPosition) throws(InputError)
    func characters(bytes: UnsafeBufferPointer<UInt8>, at position: XMLPosition) throws(InputError)
}
