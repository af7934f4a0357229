import Foundation
import SeedImport
import SeedgenTestSupport
import Testing

/// Records every event as a line of text.
final class EventRecorder: XMLStreamDelegate {
    var events: [String] = []
    var failOn: String?

    func startElement(_ name: String, attributes: XMLAttributes, at location: InputLocation) throws(InputError) {
        if name == failOn { throw InputError("refused <\(name)>", at: location) }
        let pairs = (0..<attributes.count).map { "\(attributes.name(at: $0))=\(attributes.value(at: $0))" }
        events.append("start \(name) \(pairs.joined(separator: " ")) @\(location.line)")
    }

    func endElement(_ name: String, at location: InputLocation) throws(InputError) {
        events.append("end \(name)")
    }

    /// Text may come in pieces (a character reference is one): join the pieces of one node.
    func characters(_ text: String, at location: InputLocation) throws(InputError) {
        if let last = events.last, last.hasPrefix("text ") {
            events[events.count - 1] = last + text
        } else {
            events.append("text " + text)
        }
    }
}

@Suite("Streaming XML reader")
struct XMLStreamReaderTests {
    static func parse(_ text: String, delegate: EventRecorder = EventRecorder()) throws -> (EventRecorder, InputError?) {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = try directory.write(text, to: "input.xml")
        do {
            try XMLStreamReader(file: InputFile(opening: path), delegate: delegate).parse()
            return (delegate, nil)
        } catch {
            return (delegate, InputError(error.message, at: InputLocation(file: "input.xml", line: error.location.line, column: error.location.column)))
        }
    }

    @Test("hands elements, attributes (entities replaced), text and lines to the delegate")
    func events() throws {
        let (recorder, error) = try Self.parse("""
            <?xml version="1.0" encoding="UTF-8"?>
            <Events>
              <Event timeStamp="01/16/2010" note="a &amp; b &quot;c&quot;"/>
              <Name>Stade &#233;</Name>
            </Events>
            """)
        #expect(error == nil)
        let events = recorder.events.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.filter { $0 != "text" }
        #expect(events == [
            "start Events  @2",
            "start Event timeStamp=01/16/2010 note=a & b \"c\" @3",
            "end Event",
            "start Name  @4",
            "text Stade é",
            "end Name",
            "end Events",
        ])
    }

    @Test("the first error stops the parse and names line and column")
    func malformed() throws {
        let (recorder, error) = try Self.parse("<Events>\n  <Event a=\"1\">\n  </Eventx>\n  <Event a=\"2\"/>\n</Events>\n")
        let failure = try #require(error)
        #expect(failure.location.line == 3)
        #expect(failure.location.column > 0)
        #expect(failure.message.contains("mismatch"), "\(failure)")
        #expect(!recorder.events.contains { $0.contains("a=2") })
    }

    @Test("an error thrown by the delegate stops the parse with that error")
    func delegateError() throws {
        let recorder = EventRecorder()
        recorder.failOn = "Bad"
        let (_, error) = try Self.parse("<A>\n<B/>\n<Bad/>\n<C/>\n</A>", delegate: recorder)
        #expect(error?.message == "refused <Bad>")
        #expect(error?.location.line == 3)
        #expect(!recorder.events.contains { $0.hasPrefix("start C") })
    }

    @Test("an external entity (file:///etc/passwd) is refused, never read")
    func externalEntity() throws {
        let (recorder, error) = try Self.parse("""
            <?xml version="1.0"?>
            <!DOCTYPE Events [<!ENTITY leak SYSTEM "file:///etc/passwd">]>
            <Events><Event name="&leak;"/></Events>
            """)
        #expect(error?.message.contains("entity declarations are not accepted (entity 'leak')") == true, "\(String(describing: error))")
        #expect(error?.location.line == 2)
        #expect(!recorder.events.joined().contains("root:"))
    }

    @Test("a billion-laughs document is refused at its first entity declaration")
    func billionLaughs() throws {
        var doctype = "<!DOCTYPE lolz [\n<!ENTITY lol \"lol\">\n"
        for level in 1...9 {
            let previous = level == 1 ? "lol" : "lol\(level - 1)"
            doctype += "<!ENTITY lol\(level) \"" + String(repeating: "&\(previous);", count: 10) + "\">\n"
        }
        let (_, error) = try Self.parse("<?xml version=\"1.0\"?>\n" + doctype + "]>\n<lolz a=\"&lol9;\"/>\n")
        #expect(error?.message.contains("entity declarations are not accepted") == true)
        #expect(error?.location.line == 3)
    }

    @Test("an undeclared entity is an error, not an empty value")
    func undeclaredEntity() throws {
        let (_, error) = try Self.parse("<Events>\n<Event a=\"&nope;\"/>\n</Events>")
        #expect(error?.location.line == 2)
        #expect(error?.message.contains("nope") == true, "\(String(describing: error))")
    }

    @Test("a DOCTYPE naming an external DTD (as XML plists do) is accepted and the DTD never loaded")
    func externalDTDNotLoaded() throws {
        let (recorder, error) = try Self.parse("""
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://127.0.0.1:9/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0"><dict/></plist>
            """)
        #expect(error == nil)
        #expect(recorder.events.first == "start plist version=1.0 @3")
    }

    @Test("bytes that are not the declared encoding are an error with their line")
    func wrongEncoding() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        var bytes = Array("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<Events>\n<Event name=\"".utf8)
        bytes += [0xC3, 0x28]  // not UTF-8
        bytes += Array("\"/>\n</Events>\n".utf8)
        let path = directory.path("latin.xml")
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let error = try #require(throws: InputError.self) { try XMLStreamReader(file: InputFile(opening: path), delegate: EventRecorder()).parse() }
        #expect(error.location.file == path && error.location.line == 3, "\(error)")
        #expect(error.message.contains("UTF-8"), "\(error)")
    }

    @Test("a file larger than one chunk streams through with every element, and progress reaches the end")
    func manyChunks() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let rows = 20_000
        var text = "<Events>\n"
        for index in 0..<rows { text += "  <Event n=\"\(index)\" pad=\"\(String(repeating: "x", count: 20))\"/>\n" }
        text += "</Events>\n"
        let path = try directory.write(text, to: "big.xml")
        let recorder = EventRecorder()
        var lastProgress = (0, 0)
        try XMLStreamReader(file: InputFile(opening: path), delegate: recorder).parse { lastProgress = ($0, $1) }
        #expect(text.utf8.count > 2 * 256 * 1024)
        #expect(recorder.events.filter { $0.hasPrefix("start Event ") }.count == rows)
        #expect(recorder.events.last(where: { $0.hasPrefix("start Event ") }) == "start Event n=\(rows - 1) pad=\(String(repeating: "x", count: 20)) @\(rows + 1)")
        #expect(lastProgress.0 == text.utf8.count && lastProgress.1 == text.utf8.count)
    }

    @Test("a missing file is an error naming it")
    func missingFile() {
        let error = try? #require(throws: InputError.self) { try XMLStreamReader(file: InputFile(opening: "/nonexistent/Events.xml"), delegate: EventRecorder()).parse() }
        #expect(error?.location.file == "/nonexistent/Events.xml")
    }
}
