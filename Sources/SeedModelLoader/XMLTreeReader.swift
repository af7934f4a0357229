import SeedModel
import Foundation
import SeedgenLibXML2

/// Reads small XML documents (model files) into `XMLElementNode` trees with libxml2.
///
/// Safe by construction: no network (`XML_PARSE_NONET`), no DTD loading, no external or
/// substituted entities. Large data files are streamed by the importer instead.
enum XMLTreeReader {
    static func parse(_ bytes: [UInt8], url: String) throws(XMLSyntaxError) -> XMLElementNode {
        guard let context = xmlNewParserCtxt() else {
            throw XMLSyntaxError(line: 0, column: 0, message: "libxml2 could not allocate a parser")
        }
        defer { xmlFreeParserCtxt(context) }
        // libxml2 goes on past the first error; the first one is where the problem is.
        let firstError = FirstErrorBox()
        context.pointee._private = Unmanaged.passUnretained(firstError).toOpaque()
        context.pointee.sax.pointee.serror = { userData, error in
            guard let userData, let error else { return }
            let context = userData.assumingMemoryBound(to: xmlParserCtxt.self)
            guard let box = context.pointee._private else { return }
            let first = Unmanaged<FirstErrorBox>.fromOpaque(box).takeUnretainedValue()
            if first.error == nil && error.pointee.level.rawValue >= XML_ERR_ERROR.rawValue {
                first.error = XMLTreeReader.syntaxError(from: error)
            }
        }
        let options = Int32(XML_PARSE_NONET.rawValue | XML_PARSE_NOERROR.rawValue | XML_PARSE_NOWARNING.rawValue)
        let document = bytes.withUnsafeBufferPointer { buffer in
            buffer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: buffer.count) { chars in
                xmlCtxtReadMemory(context, chars, Int32(buffer.count), url, nil, options)
            }
        }
        guard let document, context.pointee.wellFormed != 0 else {
            if let document { xmlFreeDoc(document) }
            throw firstError.error ?? XMLSyntaxError(line: 0, column: 0, message: "malformed XML")
        }
        defer { xmlFreeDoc(document) }
        guard let root = xmlDocGetRootElement(document) else {
            throw XMLSyntaxError(line: 1, column: 1, message: "the document has no root element")
        }
        return copy(root)
    }

    fileprivate static func syntaxError(from error: xmlErrorPtr) -> XMLSyntaxError {
        let message = error.pointee.message.map { String(cString: $0) } ?? "malformed XML"
        return XMLSyntaxError(
            line: Int(error.pointee.line),
            column: Int(error.pointee.int2),
            message: message.trimmingCharacters(in: .whitespacesAndNewlines)
        )
    }

    private static func copy(_ node: xmlNodePtr) -> XMLElementNode {
        var element = XMLElementNode(
            name: String(cString: node.pointee.name),
            attributes: [],
            children: [],
            line: Int(xmlGetLineNo(node))
        )
        var attribute = node.pointee.properties
        while let current = attribute {
            let name = String(cString: current.pointee.name)
            var value = ""
            if let content = xmlNodeListGetString(node.pointee.doc, current.pointee.children, 1) {
                value = String(cString: content)
                seedgen_xml_free(content)
            }
            element.attributes.append((name, value))
            attribute = current.pointee.next
        }
        var child = node.pointee.children
        while let current = child {
            if current.pointee.type == XML_ELEMENT_NODE {
                element.children.append(copy(current))
            }
            child = current.pointee.next
        }
        return element
    }
}
