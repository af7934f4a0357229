import Foundation
import SeedgenLibXML2

/// Streams an XML file through libxml2's SAX2 push parser, in fixed-size chunks, so memory
/// stays flat however large the file is.
///
/// Safe by construction: no network (`XML_PARSE_NONET`), no DTD loading, no entity
/// substitution, and any entity declaration is refused: no external entity can be read
/// and no entity expansion can blow up. The first error stops the parse and is thrown
/// with its `file:line:column`.
package final class XMLStreamReader {
    /// The file being read, and its path.
    private let file: InputFile
    package let path: String
    private let delegate: XMLStreamDelegate
    /// The same object as `delegate` when it takes raw events. Both are constants, called as
    /// `rawDelegate?.…`: the call borrows them, with no retain per event.
    private let rawDelegate: XMLRawDelegate?
    private var context: xmlParserCtxtPtr?
    private var failure: InputError?
    /// Set with `failure`: the callbacks test a flag, not an optional error (no copy per event).
    @exclusivity(unchecked) private var failed = false
    /// Whether the root element has begun (an error before it means there is no document).
    @exclusivity(unchecked) private var sawElement = false
    /// Element names as Strings, by libxml2's interned name pointer: one String per name, not per element.
    @exclusivity(unchecked) private var names: [UnsafeRawPointer: String] = [:]
    /// The last name looked up: most documents repeat one element name many times over.
    @exclusivity(unchecked) private var recentNames = Array(repeating: (pointer: UnsafeRawPointer(bitPattern: 1)!, name: ""), count: 8)
    @exclusivity(unchecked) private var nextRecent = 0
    /// Bytes handed to the parser so far.
    package private(set) var bytesRead = 0
    /// The size of the file.
    package private(set) var totalBytes = 0

    /// The chunk size handed to libxml2.
    static let chunkSize = 256 * 1024

    /// A reader of `file` that reports to `delegate`.
    package init(file: InputFile, delegate: XMLStreamDelegate) {
        self.file = file
        self.path = file.path
        self.delegate = delegate
        self.rawDelegate = delegate as? XMLRawDelegate
    }

    /// Parses the whole file. `progress` is called after each chunk with the bytes read so far.
    package func parse(progress: ((Int, Int) -> Void)? = nil) throws(InputError) {
        totalBytes = file.size

        var handler = xmlSAXHandler()
        handler.initialized = XML_SAX2_MAGIC
        handler.startElementNs = { userData, localname, _, _, _, _, attributeCount, _, attributes in
            XMLStreamReader.with(userData) { $0.didStart(localname, attributeCount, attributes) }
        }
        handler.endElementNs = { userData, localname, _, _ in
            XMLStreamReader.with(userData) { $0.didEnd(localname) }
        }
        handler.characters = { userData, bytes, length in
            XMLStreamReader.with(userData) { $0.didFind(bytes, length) }
        }
        handler.cdataBlock = handler.characters
        handler.entityDecl = { userData, name, _, _, _, _ in
            let reader = XMLStreamReader.from(userData)
            let entity = name.map { String(cString: $0) } ?? "?"
            reader.fail(InputError("entity declarations are not accepted (entity '\(entity)'): no external entities, no entity expansion", at: reader.location))
        }
        // Declarations of an internal DTD subset (`<!DOCTYPE x [ … ]>`) could give attributes
        // values the file does not show (`<!ATTLIST Note count CDATA "777">`): refused.
        handler.attributeDecl = { userData, element, attribute, _, _, _, tree in
            xmlFreeEnumeration(tree)
            let reader = XMLStreamReader.from(userData)
            let name = [element, attribute].compactMap { $0.map { String(cString: $0) } }.joined(separator: " ")
            reader.fail(InputError("an internal DTD subset is not accepted (<!ATTLIST \(name) …>): declarations could change the values the file shows", at: reader.location))
        }
        handler.elementDecl = { userData, name, _, _ in
            let reader = XMLStreamReader.from(userData)
            reader.fail(InputError("an internal DTD subset is not accepted (<!ELEMENT \(name.map { String(cString: $0) } ?? "?") …>)", at: reader.location))
        }
        handler.notationDecl = { userData, name, _, _ in
            let reader = XMLStreamReader.from(userData)
            reader.fail(InputError("an internal DTD subset is not accepted (<!NOTATION \(name.map { String(cString: $0) } ?? "?") …>)", at: reader.location))
        }
        handler.serror = { userData, error in
            guard let userData, let error, error.pointee.level.rawValue >= XML_ERR_ERROR.rawValue else { return }
            let reader = XMLStreamReader.from(userData)
            let message = error.pointee.message.map { String(cString: $0) } ?? "malformed XML"
            let location = InputLocation(file: reader.path, line: Int(error.pointee.line), column: Int(error.pointee.int2))
            let code = error.pointee.code
            if !reader.sawElement, code == Int32(XML_ERR_DOCUMENT_EMPTY.rawValue) || code == Int32(XML_ERR_DOCUMENT_END.rawValue) {
                // Empty, blank or BOM-only: libxml2 says "Document is empty" or "Extra content".
                reader.fail(InputError("no root element: the file holds no XML element", at: location))
                return
            }
            if message.contains("Huge input lookup") {
                // libxml2's own words for a single token past its limit (XML_PARSE_HUGE is never set).
                reader.fail(InputError("malformed XML: a value, text, comment or name longer than 10,000,000 bytes (libxml2's limit)", at: location))
                return
            }
            reader.fail(InputError("malformed XML: " + message.trimmingCharacters(in: .whitespacesAndNewlines), at: location))
        }

        let me = Unmanaged.passUnretained(self).toOpaque()
        guard let context = xmlCreatePushParserCtxt(&handler, me, nil, 0, path) else {
            throw InputError("libxml2 could not create a parser", at: location)
        }
        self.context = context
        defer {
            xmlFreeParserCtxt(context)
            self.context = nil
        }
        xmlCtxtUseOptions(context, Int32(XML_PARSE_NONET.rawValue | XML_PARSE_NOERROR.rawValue | XML_PARSE_NOWARNING.rawValue))

        // The next chunk is read on a thread of its own while libxml2 parses this one. Two
        // buffers for every chunk: a new one per read would be fresh memory for the kernel to
        // fault in and zero each time (half a second of a 323 MB plist's build).
        let chunks = try ChunkReader(file: file, chunkSize: Self.chunkSize)
        defer { chunks.close() }
        var finished = false
        while !finished {
            let chunk = try chunks.next()
            finished = chunk.isEmpty
            bytesRead += chunk.count
            _ = xmlParseChunk(context, chunk.baseAddress?.assumingMemoryBound(to: CChar.self), Int32(chunk.count), finished ? 1 : 0)
            if let failure { throw failure }
            progress?(bytesRead, totalBytes)
        }
        if context.pointee.wellFormed == 0 {
            throw failure ?? InputError("malformed XML", at: location)
        }
    }

    /// The parser's current position.
    package var location: InputLocation {
        InputLocation(file: path, line: line, column: column)
    }

    /// The line and column libxml2 is at (0 outside a parse).
    var line: Int { context.map { Int(xmlSAX2GetLineNumber($0)) } ?? 0 }
    var column: Int { context.map { Int(xmlSAX2GetColumnNumber($0)) } ?? 0 }

    /// The reader behind `userData`, for the rare callbacks (declarations, errors); the events,
    /// millions a file, use `with(_:_:)`, which does not retain it.
    private static func from(_ userData: UnsafeMutableRawPointer?) -> XMLStreamReader {
        Unmanaged<XMLStreamReader>.fromOpaque(userData!).takeUnretainedValue()
    }

    /// Runs `body` on the reader behind `userData` without retaining it (the parse holds it).
    private static func with(_ userData: UnsafeMutableRawPointer?, _ body: (XMLStreamReader) -> Void) {
        Unmanaged<XMLStreamReader>.fromOpaque(userData!)._withUnsafeGuaranteedRef(body)
    }

    /// Keeps the first error and stops the parser.
    private func fail(_ error: InputError) {
        if failure == nil { failure = error }
        failed = true
        if let context { xmlStopParser(context) }
    }

    /// The String of an interned element name.
    func name(_ pointer: UnsafePointer<UInt8>) -> String {
        let key = UnsafeRawPointer(pointer)
        // libxml2 interns names: the same pointer for the same name; a few names come most often.
        for recent in recentNames where recent.pointer == key { return recent.name }
        let name = names[key] ?? String(cString: pointer)
        names[key] = name
        recentNames[nextRecent] = (key, name)
        nextRecent = (nextRecent + 1) % recentNames.count
        return name
    }

    private func didStart(_ name: UnsafePointer<UInt8>?, _ count: Int32, _ attributes: UnsafeMutablePointer<UnsafePointer<UInt8>?>?) {
        guard !failed, let name else { return }
        sawElement = true
        do {
            let attributes = XMLAttributes(base: UnsafePointer(attributes), count: Int(count))
            if rawDelegate != nil {
                try rawDelegate?.startElement(XMLName(name, reader: self), attributes: attributes, at: XMLPosition(reader: self))
            } else {
                try delegate.startElement(self.name(name), attributes: attributes, at: location)
            }
        } catch {
            fail(error)
        }
    }

    private func didEnd(_ name: UnsafePointer<UInt8>?) {
        guard !failed, let name else { return }
        do {
            if rawDelegate != nil {
                try rawDelegate?.endElement(XMLName(name, reader: self), at: XMLPosition(reader: self))
            } else {
                try delegate.endElement(self.name(name), at: location)
            }
        } catch {
            fail(error)
        }
    }

    private func didFind(_ bytes: UnsafePointer<UInt8>?, _ length: Int32) {
        guard !failed, let bytes else { return }
        if !delegate.wantsWhitespaceText {
            let text = UnsafeBufferPointer(start: bytes, count: Int(length))
            if text.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x09 || $0 == 0x0D }) { return }
        }
        do {
            let text = UnsafeBufferPointer(start: bytes, count: Int(length))
            if rawDelegate != nil {
                try rawDelegate?.characters(bytes: text, at: XMLPosition(reader: self))
            } else {
                try delegate.characters(String(decoding: text, as: UTF8.self), at: location)
            }
        } catch {
            fail(error)
        }
    }
}
