import Foundation
import SeedImport
import SeedgenTestSupport
import Testing

/// The same objects as entity XML, an XML plist, JSON and CSV build byte-identical stores.
@Suite("Source formats")
struct SourceFormatTests {
    /// Books that name their author by key and their series by a compound key, written before
    /// the objects they name; every attribute type the formats write differently.
    static let model = """
        <?xml version="1.0"?>
        <model>
            <entity name="Author">
                <attribute name="active" optional="YES" attributeType="Boolean" defaultValueString="YES"/>
                <attribute name="born" optional="YES" attributeType="Date"/>
                <attribute name="name" attributeType="String"/>
                <attribute name="rating" optional="YES" attributeType="Double"/>
                <relationship name="books" optional="YES" toMany="YES" destinationEntity="Book" inverseName="author" inverseEntity="Book"/>
                <uniquenessConstraints><uniquenessConstraint><constraint value="name"/></uniquenessConstraint></uniquenessConstraints>
            </entity>
            <entity name="Book">
                <attribute name="copies" optional="YES" attributeType="Integer 64"/>
                <attribute name="cover" optional="YES" attributeType="Binary"/>
                <attribute name="isbn" attributeType="String"/>
                <attribute name="notes" optional="YES" attributeType="String"/>
                <attribute name="pages" optional="YES" attributeType="Integer 32" defaultValueString="100"/>
                <attribute name="price" optional="YES" attributeType="Decimal"/>
                <attribute name="title" attributeType="String"/>
                <relationship name="author" optional="YES" maxCount="1" destinationEntity="Author" inverseName="books" inverseEntity="Author"/>
                <relationship name="series" optional="YES" maxCount="1" destinationEntity="Series" inverseName="books" inverseEntity="Series"/>
                <uniquenessConstraints><uniquenessConstraint><constraint value="isbn"/></uniquenessConstraint></uniquenessConstraints>
            </entity>
            <entity name="Series">
                <attribute name="name" attributeType="String"/>
                <attribute name="publisher" attributeType="String"/>
                <relationship name="books" optional="YES" toMany="YES" destinationEntity="Book" inverseName="series" inverseEntity="Book"/>
                <uniquenessConstraints><uniquenessConstraint><constraint value="publisher"/><constraint value="name"/></uniquenessConstraint></uniquenessConstraints>
            </entity>
        </model>
        """

    static let xml = """
        <Shelf>
          <Book isbn="1" title="The Way of Kings, &quot;1&quot;" pages="1007" price="9.99" copies="9007199254740993"
                author="Brandon Sanderson" series="Tor|Stormlight" notes="line one&#10;line two" cover="AAECAw=="/>
          <Book isbn="2" title="A Wizard of Earthsea — ü" author="Ursula K. Le Guin" series="Parnassus|Earthsea" notes=""/>
          <Author name="Brandon Sanderson" born="1975-12-19T00:00:00Z" active="true" rating="4.5"/>
          <Author name="Ursula K. Le Guin" active="false"/>
          <Series publisher="Tor" name="Stormlight"/>
          <Series publisher="Parnassus" name="Earthsea"/>
        </Shelf>
        """

    static let plist = """
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0"><dict>
          <key>Books</key><array>
            <dict><key>isbn</key><string>1</string><key>title</key><string>The Way of Kings, "1"</string>
              <key>pages</key><integer>1007</integer><key>price</key><real>9.99</real><key>copies</key><integer>9007199254740993</integer>
              <key>author</key><string>Brandon Sanderson</string><key>series</key><string>Tor|Stormlight</string>
              <key>notes</key><string>line one
        line two</string><key>cover</key><data>AAECAw==</data></dict>
            <dict><key>isbn</key><string>2</string><key>title</key><string>A Wizard of Earthsea — ü</string>
              <key>author</key><string>Ursula K. Le Guin</string><key>series</key><string>Parnassus|Earthsea</string><key>notes</key><string></string></dict>
          </array>
          <key>Authors</key><array>
            <dict><key>name</key><string>Brandon Sanderson</string><key>born</key><date>1975-12-19T00:00:00Z</date><key>active</key><true/><key>rating</key><real>4.5</real></dict>
            <dict><key>name</key><string>Ursula K. Le Guin</string><key>active</key><false/></dict>
          </array>
          <key>Series</key><array>
            <dict><key>publisher</key><string>Tor</string><key>name</key><string>Stormlight</string></dict>
            <dict><key>publisher</key><string>Parnassus</string><key>name</key><string>Earthsea</string></dict>
          </array>
        </dict></plist>
        """

    static let json = #"""
        {
          "Books": [
            {"isbn": "1", "title": "The Way of Kings, \"1\"", "pages": 1007, "price": 9.99, "copies": 9007199254740993,
             "author": "Brandon Sanderson", "series": "Tor|Stormlight", "notes": "line one\nline two", "cover": "AAECAw=="},
            {"isbn": "2", "title": "A Wizard of Earthsea \u2014 \u00fc", "pages": null, "price": null,
             "author": "Ursula K. Le Guin", "series": "Parnassus|Earthsea", "notes": ""}
          ],
          "Authors": [
            {"name": "Brandon Sanderson", "born": "1975-12-19T00:00:00Z", "active": true, "rating": 4.5},
            {"name": "Ursula K. Le Guin", "active": false, "born": null}
          ],
          "Series": [{"publisher": "Tor", "name": "Stormlight"}, {"publisher": "Parnassus", "name": "Earthsea"}]
        }
        """#

    static let csv = [
        ("Books.csv", "isbn,title,pages,price,copies,author,series,notes,cover\r\n"
            + "1,\"The Way of Kings, \"\"1\"\"\",1007,9.99,9007199254740993,Brandon Sanderson,Tor|Stormlight,\"line one\nline two\",AAECAw==\r\n"
            + "2,A Wizard of Earthsea — ü,,,,Ursula K. Le Guin,Parnassus|Earthsea,\"\",\r\n"),
        ("Authors.csv", "name,born,active,rating\nBrandon Sanderson,1975-12-19T00:00:00Z,true,4.5\nUrsula K. Le Guin,,false,\n"),
        ("Series.csv", "\u{FEFF}publisher,name\nTor,Stormlight\n\nParnassus,Earthsea"),
    ]

    /// The same objects as exporters write them: one entity a file, as JSON arrays, JSON Lines,
    /// TSV and CSV with semicolons.
    static let jsonArrays = [
        ("Books.json", #"[{"isbn": "1", "title": "The Way of Kings, \"1\"", "pages": 1007, "price": 9.99, "copies": 9007199254740993, "author": "Brandon Sanderson", "series": "Tor|Stormlight", "notes": "line one\nline two", "cover": "AAECAw=="}, {"isbn": "2", "title": "A Wizard of Earthsea \u2014 \u00fc", "author": "Ursula K. Le Guin", "series": "Parnassus|Earthsea", "notes": ""}]"#),
        ("Authors.json", #"[{"name": "Brandon Sanderson", "born": "1975-12-19T00:00:00Z", "active": true, "rating": 4.5}, {"name": "Ursula K. Le Guin", "active": false}]"#),
        ("Series.json", #"[{"publisher": "Tor", "name": "Stormlight"}, {"publisher": "Parnassus", "name": "Earthsea"}]"#),
    ]
    static let jsonLines = [
        ("Books.jsonl", #"""
            {"isbn": "1", "title": "The Way of Kings, \"1\"", "pages": 1007, "price": 9.99, "copies": 9007199254740993, "author": "Brandon Sanderson", "series": "Tor|Stormlight", "notes": "line one\nline two", "cover": "AAECAw=="}
            {"isbn": "2", "title": "A Wizard of Earthsea \u2014 \u00fc", "author": "Ursula K. Le Guin", "series": "Parnassus|Earthsea", "notes": ""}

            """#),
        ("Authors.ndjson", "{\"name\": \"Brandon Sanderson\", \"born\": \"1975-12-19T00:00:00Z\", \"active\": true, \"rating\": 4.5}\r\n\r\n{\"name\": \"Ursula K. Le Guin\", \"active\": false}"),
        ("Series.jsonl", "{\"publisher\": \"Tor\", \"name\": \"Stormlight\"}\n{\"publisher\": \"Parnassus\", \"name\": \"Earthsea\"}\n"),
    ]
    static let tsv = csv.map { name, text in
        (name.replacingOccurrences(of: ".csv", with: ".tsv"),
         text.replacingOccurrences(of: ",", with: "\t").replacingOccurrences(of: "Kings\t", with: "Kings,"))
    }
    static let semicolons = csv.map { name, text in
        (name, text.replacingOccurrences(of: ",", with: ";").replacingOccurrences(of: "Kings;", with: "Kings,"))
    }

    /// The error `text`, saved as `file`, gives with the shelf model; nothing may be written.
    static func error(_ text: String, file: String, entity: String? = nil) throws -> InputError {
        let run = try ImportRun(model: model)
        defer { run.directory.remove() }
        let path = try run.directory.write(text, to: file)
        let error = try #require(throws: InputError.self) { try run.build(paths: [path], entity: entity) }
        #expect(!FileManager.default.fileExists(atPath: run.output), "nothing is written on error")
        return error
    }

    @Test("a key that names no object is refused at the key's own line and column, not its object's, in every format that places values", arguments: [
        ("Books.csv", "isbn,title,author\n1,One,\n2,Two,Nobody\n"),
        ("books.json", "{\"Authors\": [{\"name\": \"Author 1\"}],\n \"Books\": [{\"isbn\": \"2\",\n   \"title\": \"Two\", \"author\": \"Nobody\"}]}"),
        ("tree.json", "{\"Books\": [{\"isbn\": \"2\", \"title\": \"Two\", \"@nil\": [\"pages\"],\n   \"author\": \"Nobody\"}]}"),
        ("books.plist", "<plist version=\"1.0\"><dict><key>Books</key><array><dict><key>isbn</key><string>2</string><key>title</key><string>Two</string>\n  <key>author</key><string>Nobody</string></dict></array></dict></plist>"),
    ] as [(String, String)])
    func danglingKeyPlace(_ file: String, _ text: String) throws {
        let error = try Self.error(text, file: file)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let line = try #require(lines.firstIndex { $0.contains("Nobody") })
        let start = lines[line].range(of: "Nobody")!.lowerBound
        let column = lines[line].distance(from: lines[line].startIndex, to: start) + 1
        #expect(error.message.contains("no Author has the key 'Nobody'"), "\(error)")
        #expect(error.location.line == line + 1, "\(error)")
        // The key's first character, its opening quote, or its element's start.
        #expect(error.location.column <= column && error.location.column >= column - "<string>".count, "\(error)")
    }

    /// Builds `files` with the shelf model; the store's SHA-256 and the run (to query).
    static func build(_ files: [(String, String)]) throws -> (sha256: String, run: ImportRun) {
        let run = try ImportRun(model: model)
        return (try run.build(files).fileSHA256, run)
    }

    @Test("entity XML, an XML plist, JSON, JSON arrays, JSON Lines, CSV, TSV and CSV with semicolons of the same objects build byte-identical stores")
    func sameBytes() throws {
        let (xml, run) = try Self.build([("shelf.xml", Self.xml)])
        defer { run.directory.remove() }
        #expect(try run.rows("SELECT ZISBN, ZTITLE, ZPAGES, ZCOPIES, ZNOTES, hex(ZCOVER), ZPRICE FROM ZBOOK ORDER BY ZISBN") == [
            "1|The Way of Kings, \"1\"|1007|9007199254740993|line one\nline two|00010203|9.99",
            "2|A Wizard of Earthsea — ü|100||||",
        ])
        #expect(try run.rows("SELECT ZNAME, ZACTIVE, ZBORN IS NULL, ZRATING FROM ZAUTHOR ORDER BY ZNAME") == [
            "Brandon Sanderson|1|0|4.5", "Ursula K. Le Guin|0|1|",
        ])
        #expect(try run.rows("SELECT b.ZISBN, a.ZNAME, s.ZNAME FROM ZBOOK b JOIN ZAUTHOR a ON a.Z_PK = b.ZAUTHOR JOIN ZSERIES s ON s.Z_PK = b.ZSERIES ORDER BY 1")
                == ["1|Brandon Sanderson|Stormlight", "2|Ursula K. Le Guin|Earthsea"])
        var semicolons = ImportOptions()
        semicolons.csvDelimiter = ";"
        for (format, files, options) in [("plist", [("shelf.plist", Self.plist)], ImportOptions()), ("json", [("shelf.json", Self.json)], ImportOptions()),
                                         ("csv", Self.csv, ImportOptions()), ("JSON arrays", Self.jsonArrays, ImportOptions()),
                                         ("JSON Lines", Self.jsonLines, ImportOptions()), ("tsv", Self.tsv, ImportOptions()), ("csv with ;", Self.semicolons, semicolons)] {
            let other = try ImportRun(model: Self.model)
            let sha256 = try other.build(files, options: options).fileSHA256
            defer { other.directory.remove() }
            let rows = try other.rows("SELECT * FROM ZBOOK")
            #expect(sha256 == xml, "\(format): \(rows)")
        }
    }

    /// What `dump` writes for a NULL the model would fill: the attribute stays NULL, unless
    /// another mention of the object gives a value.
    @Test("an attribute given nil (seedgen:nil, @nil) keeps no default; a later mention's value fills it; XML, plist, JSON and CSV agree")
    func nilKeepsNoDefault() throws {
        let xml = """
            <Shelf xmlns:seedgen="urn:seedgen:source">
              <Book isbn="1" title="A" seedgen:nil="pages"/>
              <Book isbn="2" title="B" seedgen:nil="pages notes"/>
              <Book isbn="2" pages="7"/>
              <Book isbn="3" title="C"/>
            </Shelf>
            """
        let plist = """
            <plist version="1.0"><dict><key>Books</key><array>
              <dict><key>isbn</key><string>1</string><key>title</key><string>A</string><key>@nil</key><array><string>pages</string></array></dict>
              <dict><key>isbn</key><string>2</string><key>title</key><string>B</string><key>@nil</key><string>pages notes</string></dict>
              <dict><key>isbn</key><string>2</string><key>pages</key><integer>7</integer></dict>
              <dict><key>isbn</key><string>3</string><key>title</key><string>C</string></dict>
            </array></dict></plist>
            """
        let json = #"{"Books": [{"isbn": "1", "title": "A", "@nil": ["pages"]}, {"isbn": "2", "title": "B", "@nil": "pages notes"}, {"isbn": "2", "pages": 7}, {"isbn": "3", "title": "C"}]}"#
        let (bytes, run) = try Self.build([("nil.xml", xml)])
        defer { run.directory.remove() }
        #expect(try run.rows("SELECT ZISBN, quote(ZPAGES) FROM ZBOOK ORDER BY ZISBN") == ["1|NULL", "2|7", "3|100"])
        let csv = "isbn,title,pages,@nil\n1,A,,pages\n2,B,,pages notes\n2,,7,\n3,C,,\n"
        for (name, text) in [("nil.plist", plist), ("nil.json", json), ("Books.csv", csv)] {
            let (other, otherRun) = try Self.build([(name, text)])
            defer { otherRun.directory.remove() }
            #expect(other == bytes, "\(name)")
        }
    }

    /// An object without a key that an identifier names may be completed by a later mention:
    /// before, its default was filled at the first one, and a later value "conflicted" with it.
    @Test("an identified object without a key takes its default only when no mention gives a value or nil")
    func identifiedObjectsSettleDefaultsLast() throws {
        let run = try ImportRun(model: """
            <?xml version="1.0"?>
            <model>
                <entity name="Tag"><attribute name="label" optional="YES" attributeType="String" defaultValueString="x"/></entity>
            </model>
            """)
        defer { run.directory.remove() }
        try run.build([("tags.xml", """
            <Tags xmlns:seedgen="urn:seedgen:source">
              <Tag seedgen:id="t"/>
              <Tag seedgen:id="t" label="y"/>
              <Tag seedgen:id="u"/>
              <Tag seedgen:id="u" seedgen:nil="label"/>
              <Tag seedgen:nil="label"/>
              <Tag/>
              <Tag seedgen:id="v"/>
            </Tags>
            """)])
        #expect(try run.rows("SELECT quote(ZLABEL) FROM ZTAG ORDER BY Z_PK") == ["'y'", "NULL", "NULL", "'x'", "'x'"])
    }

    @Test("JSON nests objects and keys them by the natural key, as plists do, with @id identifiers")
    func jsonNesting() throws {
        let nested = #"""
            {"Series": {"Tor|Stormlight": {"books": [{"isbn": "1", "title": "One", "author": {"name": "B"}}, "2"]}},
             "Book": [{"@id": "two", "isbn": "2", "title": "Two", "@author": "ann"}],
             "Author": [{"@id": "ann", "name": "Ann"}]}
            """#
        let (_, run) = try Self.build([("nested.json", nested)])
        defer { run.directory.remove() }
        #expect(try run.rows("SELECT b.ZISBN, a.ZNAME, s.ZPUBLISHER || '|' || s.ZNAME FROM ZBOOK b JOIN ZAUTHOR a ON a.Z_PK = b.ZAUTHOR JOIN ZSERIES s ON s.Z_PK = b.ZSERIES ORDER BY 1")
                == ["1|B|Tor|Stormlight", "2|Ann|Tor|Stormlight"])
    }
}
