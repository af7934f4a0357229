import Foundation
import SeedImport
import SeedModelLoader
import SeedStore
import SeedgenTestSupport
import Testing

/// Values the hostile round found stored wrong with exit 0, each now stored exactly or refused
/// with its place (every test here failed before its fix).
@Suite("Every value right, or a clear error")
struct ValueFidelityTests {
    /// A directory with the sample model, and the store a build writes there; removed with the run.
    final class Run {
        let directory: TemporaryDirectory
        let layout: StoreLayout
        var output: String { directory.path("out.sqlite") }

        init(directory: TemporaryDirectory, layout: StoreLayout) {
            self.directory = directory
            self.layout = layout
        }

        deinit { directory.remove() }

        func rows(_ sql: String) throws -> [String] { try SQLiteShell.rows(output, sql) }
    }

    static func run(model: String = Sample.model) throws -> Run {
        let directory = try TemporaryDirectory()
        return Run(directory: directory, layout: try StoreLayout(model: try ModelLoader.load(from: try directory.write(model, to: "Model.xcdatamodel/contents"))))
    }

    /// The error building `files` gives; nil when it builds.
    static func error(_ run: Run, _ files: [(String, [UInt8])]) throws -> InputError? {
        let builder = try StoreBuilder(layout: run.layout, outputPath: run.output)
        let importer = SeedImporter(builder: builder)
        do {
            for (name, bytes) in files {
                let path = run.directory.path(name)
                try Data(bytes).write(to: URL(fileURLWithPath: path))
                try importer.importFile(path)
            }
            try importer.finish()
            _ = try builder.finish()
            return nil
        } catch let error as InputError {
            return error
        }
    }

    @Test("a NUL inside a string is stored with every byte after it (JSON, CSV, binary plist)")
    func nulInsideText() throws {
        let text = Sample.Text("a\u{0}b\u{0}")
        let sample = Sample(name: Sample.Text("k"), values: ["text": .text(text)], parent: nil, id: "s0")
        for format in [SampleFormat.json, .csv, .binaryPlist] {
            let run = try Self.run()
            #expect(try Self.error(run, [(format.fileName, format.write([sample]))]) == nil)
            #expect(try run.rows("SELECT hex(ZTEXT), length(CAST(ZTEXT AS BLOB)) FROM ZSAMPLE") == ["61006200|4"], "\(format)")
        }
    }

    @Test("a lone UTF-16 surrogate in a binary plist is refused at its object, as JSON refuses it")
    func loneSurrogate() throws {
        let sample = Sample(name: Sample.Text("k"), values: ["text": .text(Sample.Text([.scalar("a"), .loneSurrogate(0xD800)]))], parent: nil, id: "s0")
        for format in [SampleFormat.binaryPlist, .json] {
            let error = try #require(try Self.error(try Self.run(), [(format.fileName, format.write([sample]))]), "\(format)")
            #expect(error.location.line >= 1 && error.location.column > 1, "\(error)")
            #expect(error.message.contains("surrogate"), "\(error)")
        }
    }

    @Test("a binary plist of shared arrays (a DAG) is counted, not expanded 2^40 times")
    func sharedObjects() throws {
        // Object 0 is the root {Samples: [1]}; each array k holds array k+1 twice; the last holds "x".
        var objects: [[UInt8]] = [[0xD1, 1, 2], [0x57] + Array("Samples".utf8)]
        let depth = 40
        for level in 0..<depth { objects.append([0xA2, UInt8(3 + level), UInt8(3 + level)]) }
        objects.append([0x51, 0x78])
        var bytes = Array("bplist00".utf8)
        var offsets: [UInt8] = []
        for object in objects {
            offsets.append(UInt8(bytes.count))
            bytes += object
        }
        let table = bytes.count
        bytes += offsets
        bytes += [0, 0, 0, 0, 0, 0, 1, 1] + BinaryPlistWriter.bigEndian(UInt64(objects.count), 8) + BinaryPlistWriter.bigEndian(0, 8)
            + BinaryPlistWriter.bigEndian(UInt64(table), 8)
        #expect(bytes.count < 250)
        let error = try #require(try Self.error(try Self.run(), [("Shared.plist", bytes)]))
        #expect(error.message.contains("shared so often"), "\(error)")
    }

    @Test("a Boolean never names an object: \"parent\": true, \"children\": [true] are not the object keyed YES")
    func booleanIsNoKey() throws {
        let json = #"{"Samples": [{"name": "YES"}, {"name": "b", "parent": true}]}"#
        let plist = """
            <?xml version="1.0"?><plist version="1.0"><dict><key>Samples</key><array>
            <dict><key>name</key><string>YES</string></dict>
            <dict><key>name</key><string>b</string><key>parent</key><true/></dict></array></dict></plist>
            """
        let treePlist = plist.replacingOccurrences(of: "<key>parent</key><true/>", with: "<key>parent</key><true/><key>children</key><array/>")
        // A to-many's list or single value of Booleans: before, `[true]` linked the object keyed YES.
        let listJSON = #"{"Samples": [{"name": "YES"}, {"name": "b", "children": [true]}]}"#
        let singleJSON = #"{"Samples": [{"name": "YES"}, {"name": "b", "children": false}]}"#
        let listPlist = plist.replacingOccurrences(of: "<key>parent</key><true/>", with: "<key>children</key><array><true/></array>")
        for (name, text) in [("Samples.json", json), ("Samples.plist", plist), ("Tree.plist", treePlist),
                             ("List.json", listJSON), ("Single.json", singleJSON), ("List.plist", listPlist)] {
            let error = try #require(try Self.error(try Self.run(), [(name, Array(text.utf8))]), "\(name) built")
            #expect(error.message.contains("a Boolean is never a key") && error.location.line >= 1 && error.location.column >= 1, "\(error)")
        }
    }

    @Test("keys compare as bytes in every format: NFC and NFD are two objects, in keyed sections too")
    func normalizationFormsAreTwoKeys() throws {
        // In the keys' byte order (a binary plist's keyed section is read in that order).
        let samples = [Sample(name: Sample.Text("E\u{301}ire"), values: [:], parent: Sample.Text("\u{C9}ire"), id: "s0"),
                       Sample(name: Sample.Text("\u{C9}ire"), values: [:], parent: Sample.Text("E\u{301}ire"), id: "s1")]
        #expect(SampleFormat.keyed(samples))
        for format in SampleFormat.allCases {
            let run = try Self.run()
            #expect(try Self.error(run, [(format.fileName, format.write(samples))]) == nil, "\(format)")
            #expect(try run.rows("SELECT hex(s.ZNAME), hex(p.ZNAME) FROM ZSAMPLE s JOIN ZSAMPLE p ON p.Z_PK = s.ZPARENT ORDER BY 1")
                    == ["45CC81697265|C389697265", "C389697265|45CC81697265"], "\(format)")
        }
    }

    @Test("underflow is refused as overflow is: 1e-400 is no Double, 1e-50 no Float (subnormals are kept)")
    func underflow() throws {
        for (attribute, literal) in [("dbl", "1e-400"), ("flt", "1e-50"), ("dec", "1e-400"), ("dbl", "0.000e-999999")] {
            let sample = Sample(name: Sample.Text("k"), values: [attribute: .number(literal)], parent: nil, id: "s0")
            let error = try Self.error(try Self.run(), [("Samples.json", SampleFormat.json.write([sample]))])
            if literal.hasPrefix("0.000") {
                #expect(error == nil, "a zero written with an exponent is 0: \(String(describing: error))")
            } else {
                #expect(error?.message.contains("too small") == true, "\(attribute) \(literal): \(String(describing: error))")
            }
        }
        let run = try Self.run()
        let subnormals = Sample(name: Sample.Text("k"), values: ["dbl": .number("5e-324"), "flt": .number("1.4e-45")], parent: nil, id: "s0")
        #expect(try Self.error(run, [("Samples.csv", SampleFormat.csv.write([subnormals]))]) == nil)
        #expect(try run.rows("SELECT ZDBL > 0, ZFLT > 0 FROM ZSAMPLE") == ["1|1"])
    }

    @Test("errors in a binary plist name the object's byte offset as file:1:column")
    func binaryPlistPlaces() throws {
        let sample = Sample(name: Sample.Text("k"), values: ["i16": .number("40000")], parent: nil, id: "s0")
        let bytes = SampleFormat.binaryPlist.write([sample])
        let error = try #require(try Self.error(try Self.run(), [("Samples.plist", bytes)]))
        // The integer object 40000 as written: 0x13 then eight bytes.
        let offset = try #require((0..<bytes.count - 9).first { bytes[$0] == 0x13 && Array(bytes[($0 + 1)...($0 + 8)]) == BinaryPlistWriter.bigEndian(40000, 8) })
        #expect(error.location.line == 1 && error.location.column == offset + 1, "\(error)")
    }

    @Test("a uniqueness constraint the data breaks names both objects, their places and the shared values, never the model's 0:0")
    func uniquenessClash() throws {
        let model = """
            <?xml version="1.0"?>
            <model><entity name="Item"><attribute name="name" attributeType="String"/><attribute name="code" optional="YES" attributeType="String"/>
            <uniquenessConstraints><uniquenessConstraint><constraint value="name"/></uniquenessConstraint>
            <uniquenessConstraint><constraint value="code"/></uniquenessConstraint></uniquenessConstraints></entity></model>
            """
        let xml = "<Items>\n<Item name=\"a\" code=\"X\"/>\n<Item name=\"n\"/>\n<Item name=\"m\"/>\n<Item name=\"b\" code=\"X\"/>\n</Items>\n"
        let error = try #require(try Self.error(try Self.run(model: model), [("Items.xml", Array(xml.utf8))]))
        #expect(error.location.file.hasSuffix("Items.xml") && error.location.line == 5 && error.location.column >= 1, "\(error)")
        #expect(error.message.contains("Item #4 breaks a uniqueness constraint: it has code \"X\", as Item #1 (defined at ")
                && error.message.contains("Items.xml:2:"), "\(error)")
        // In a hierarchy each row is named by its own entity.
        let hierarchy = """
            <?xml version="1.0"?>
            <model><entity name="Human" isAbstract="YES"><attribute name="name" attributeType="String"/><attribute name="code" optional="YES" attributeType="String"/>
            <uniquenessConstraints><uniquenessConstraint><constraint value="name"/></uniquenessConstraint>
            <uniquenessConstraint><constraint value="code"/></uniquenessConstraint></uniquenessConstraints></entity>
            <entity name="Coach" parentEntity="Human"/><entity name="Player" parentEntity="Human"/></model>
            """
        let people = "<People>\n<Player name=\"p\"/>\n<Coach name=\"a\" code=\"X\"/>\n<Player name=\"b\" code=\"X\"/>\n</People>\n"
        let clash = try #require(try Self.error(try Self.run(model: hierarchy), [("People.xml", Array(people.utf8))]))
        #expect(clash.message.hasPrefix("Player #3 breaks a uniqueness constraint: it has code \"X\", as Coach #2 (defined at ") && clash.location.line == 4, "\(clash)")
    }

    @Test("identifiers compare as bytes too: @id in NFC and in NFD name two objects")
    func normalizationFormsAreTwoIdentifiers() throws {
        let json = #"{"Samples": [{"@id": "\u00e9", "name": "a"}, {"@id": "e\u0301", "name": "b"}, {"name": "c", "@parent": "e\u0301"}, {"name": "d", "@parent": "\u00e9"}]}"#
        let run = try Self.run()
        #expect(try Self.error(run, [("Samples.json", Array(json.utf8))]) == nil)
        #expect(try run.rows("SELECT s.ZNAME, p.ZNAME FROM ZSAMPLE s LEFT JOIN ZSAMPLE p ON p.Z_PK = s.ZPARENT ORDER BY s.ZNAME") == ["a|", "b|", "c|b", "d|a"])
    }

    @Test("an error quotes the input in one short line: a 1 MB name is cut in the middle, control characters escaped")
    func errorsQuoteShortly() throws {
        let json = "{\"" + String(repeating: "x", count: 1_000_000) + "\\u001b[2J\": []}"
        let error = try #require(try Self.error(try Self.run(), [("Huge.json", Array(json.utf8))]))
        #expect(error.message.count < 560 && error.message.hasPrefix("section 'xxx") && error.message.hasSuffix("=Entity"), "\(error.message.prefix(600))")
        #expect(error.message.contains("characters left out") && error.message.contains(#"\u{1b}[2J"#) && !error.message.contains("\u{1b}"), "\(error.message.prefix(600))")
    }
}
