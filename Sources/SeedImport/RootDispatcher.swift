import Foundation
import SeedStore

/// Chooses the delegate from the root element, then forwards every event to it.
///
/// Both delegates are made up front and held in constants: forwarding an event is a direct
/// call, with no retain of a delegate chosen later (millions of events a file).
final class RootDispatcher: XMLRawDelegate {
    private enum Target { case none, propertyList, entityXML }
    @exclusivity(unchecked) private var target = Target.none
    private let propertyList: PropertyListDelegate
    private let entityXML: EntityXMLDelegate

    init(repository: SeedRepository) {
        propertyList = PropertyListDelegate(repository: repository)
        entityXML = EntityXMLDelegate(repository: repository)
    }

    func startElement(_ name: String, attributes: XMLAttributes, at location: InputLocation) throws(InputError) {
        if target == .none {
            target = name == "plist" ? .propertyList : .entityXML
            wantsWhitespaceText = target == .propertyList ? propertyList.wantsWhitespaceText : entityXML.wantsWhitespaceText
        }
        switch target {
        case .propertyList: try propertyList.startElement(name, attributes: attributes, at: location)
        case .entityXML, .none: try entityXML.startElement(name, attributes: attributes, at: location)
        }
    }

    func endElement(_ name: String, at location: InputLocation) throws(InputError) {
        switch target {
        case .propertyList: try propertyList.endElement(name, at: location)
        case .entityXML: try entityXML.endElement(name, at: location)
        case .none: break
        }
    }

    func characters(_ text: String, at location: InputLocation) throws(InputError) {
        switch target {
        case .propertyList: try propertyList.characters(text, at: location)
        case .entityXML: try entityXML.characters(text, at: location)
        case .none: break
        }
    }

    func startElement(_ name: XMLName, attributes: XMLAttributes, at position: XMLPosition) throws(InputError) {
        switch target {
        case .propertyList: try propertyList.startElement(name, attributes: attributes, at: position)
        case .entityXML, .none: try startElement(name.string, attributes: attributes, at: position.location)
        }
    }

    func endElement(_ name: XMLName, at position: XMLPosition) throws(InputError) {
        switch target {
        case .propertyList: try propertyList.endElement(name, at: position)
        case .entityXML: try entityXML.endElement(name.string, at: position.location)
        case .none: break
        }
    }

    func characters(bytes: UnsafeBufferPointer<UInt8>, at position: XMLPosition) throws(InputError) {
        switch target {
        case .propertyList: try propertyList.characters(bytes: bytes, at: position)
        case .entityXML: try entityXML.characters(String(decoding: bytes, as: UTF8.self), at: position.location)
        case .none: break
        }
    }

    @exclusivity(unchecked) private(set) var wantsWhitespaceText = false
}
