import Foundation
import SeedImport
import SeedModel
import SeedModelLoader
import SeedStore
import SeedgenTestSupport
import Testing

/// Builds a store from the cup model (or another) and the given input files.
struct ImportRun {
    let directory: TemporaryDirectory
    let layout: StoreLayout
    let output: String

    init(model: String = CupModel.contents) throws {
        directory = try TemporaryDirectory()
        layout = try StoreLayout(model: try ModelLoader.load(from: try directory.write(model, to: "Model.xcdatamodel/contents")))
        output = directory.path("out.sqlite")
    }

    /// Imports `files` (name -> text) in order and finishes the store.
    @discardableResult
    func build(_ files: [(String, String)], options: ImportOptions = ImportOptions(),
               delegate: ((SeedRepository) -> XMLStreamDelegate)? = nil) throws -> StoreBuilder.Summary {
        try build(paths: files.map { name, text in try directory.write(text, to: name) }, options: options, delegate: delegate)
    }

    /// Imports the files at `paths` in order and finishes the store.
    @discardableResult
    func build(paths: [String], options: ImportOptions = ImportOptions(), entity: String? = nil,
               delegate: ((SeedRepository) -> XMLStreamDelegate)? = nil) throws -> StoreBuilder.Summary {
        let builder = try StoreBuilder(layout: layout, outputPath: output)
        let importer = SeedImporter(builder: builder, options: options)
        for path in paths {
            if let delegate {
                try importer.importFile(path, delegate: delegate(importer.repository))
            } else {
                try importer.importFile(path, entity: entity)
            }
        }
        try importer.finish()
        return try builder.finish()
    }

    /// Rows of a query on the output, as text.
    func rows(_ sql: String) throws -> [String] {
        try SQLiteShell.rows(output, sql)
    }

    func verify() throws -> [Finding] {
        try StoreVerifier(storePath: output, layout: layout).verify()
    }
}

@Suite("Import")
struct ImportTests {
    static let groups = """
        <Cup>
            <Group name="A"><Team name="Polen"/><Team name="Griechenland"/></Group>
            <Group name="B"><Team name="Deutschland" founded="1900-01-28"/></Group>
        </Cup>
        """
    static let teams = """
        <Cup>
            <Team name="Deutschland">
                <members>
                    <Coach name="Joachim Löw" born="03.02.1960"/>
                    <Player name="Manuel Neuer" number="1" height="1.93" captain="NO"/>
                    <Player name="Philipp Lahm" number="16" captain="YES"/>
                </members>
                <venues><Stadium name="Arena Lwiw"/></venues>
            </Team>
            <Player name="Wojciech Szczęsny" number="1" team="Polen"/>
            <Stadium name="Nationalstadion Warschau"><Team name="Polen"/><Team name="Griechenland"/></Stadium>
        </Cup>
        """

    @Test("seed 002's events: three rows, the model's date pattern, white space around a value ignored")
    func events() throws {
        let run = try ImportRun(model: """
            <?xml version="1.0"?>
            <model><entity name="Event"><attribute name="timeStamp" optional="YES" attributeType="Date">
                <userInfo><entry key="dateFormat" value="MM/dd/yyyy"/></userInfo></attribute></entity></model>
            """)
        defer { run.directory.remove() }
        let summary = try run.build([("Events.xml", """
            <Events><Event timeStamp="01/16/2010"/><Event timeStamp="02/01/2010"/><Event timeStamp=" 03/05/2010 "/></Events>
            """)])
        #expect(summary.rowCounts == ["Event": 3])
        #expect(try run.rows("SELECT Z_PK, Z_ENT, Z_OPT, ZTIMESTAMP FROM ZEVENT") == ["1|1|1|285292800", "2|1|1|286675200", "3|1|1|289440000"])
        #expect(try run.verify().isEmpty)
    }

    @Test("objects merge by key across files in any order; every relationship side is written; the store verifies clean")
    func relationships() throws {
        let run = try ImportRun()
        defer { run.directory.remove() }
        // Teams come before their groups: references and merges resolve in any order.
        let summary = try run.build([("teams.xml", Self.teams), ("groups.xml", Self.groups)])
        #expect(summary.rowCounts == ["Coach": 1, "Group": 2, "Human": 0, "Player": 3, "Stadium": 2, "Team": 3])
        #expect(try run.verify().isEmpty)
        #expect(try run.rows("SELECT t.ZNAME, g.ZNAME FROM ZTEAM t JOIN ZGROUP g ON g.Z_PK = t.ZGROUP ORDER BY t.ZNAME")
            == ["Deutschland|B", "Griechenland|A", "Polen|A"])
        // Ordered one-to-many: the members' positions within the team, 2048, 3072, … as every real store holds them.
        #expect(try run.rows("SELECT h.ZNAME, h.Z_ENT, h.Z_FOK_TEAM FROM ZHUMAN h JOIN ZTEAM t ON t.Z_PK = h.ZTEAM WHERE t.ZNAME = 'Deutschland' ORDER BY h.Z_FOK_TEAM")
            == ["Joachim Löw|3|2048", "Manuel Neuer|4|3072", "Philipp Lahm|4|4096"])
        #expect(try run.rows("SELECT ZNAME, ZCAPTAIN, ZNUMBER, ZHEIGHT FROM ZHUMAN WHERE Z_ENT = 4 ORDER BY ZNAME")
            == ["Manuel Neuer|0|1|1.93", "Philipp Lahm|1|16|", "Wojciech Szczęsny|0|1|"])
        // 1960-02-03 in the model's dd.MM.yyyy (seconds since 2001, computed independently).
        #expect(try run.rows("SELECT ZBORN FROM ZHUMAN WHERE ZNAME = 'Joachim Löw'") == ["-1291075200"])
        // Stadium < Team: the join table is named after Stadium.hosts.
        #expect(try run.rows("SELECT s.ZNAME, t.ZNAME FROM Z_5HOSTS j JOIN ZSTADIUM s ON s.Z_PK = j.Z_5VENUES JOIN ZTEAM t ON t.Z_PK = j.Z_6HOSTS ORDER BY 1, 2")
            == ["Arena Lwiw|Deutschland", "Nationalstadion Warschau|Griechenland", "Nationalstadion Warschau|Polen"])
        #expect(try run.rows("SELECT Z_ENT, Z_MAX FROM Z_PRIMARYKEY WHERE Z_MAX > 0 ORDER BY Z_ENT") == ["1|2", "2|4", "5|2", "6|3"])
    }

    @Test("the same inputs give the same bytes; the input order of independent rows does not change the content")
    func reproducible() throws {
        let first = try ImportRun()
        defer { first.directory.remove() }
        let second = try ImportRun()
        defer { second.directory.remove() }
        let a = try first.build([("teams.xml", Self.teams), ("groups.xml", Self.groups)])
        let b = try second.build([("teams.xml", Self.teams), ("groups.xml", Self.groups)])
        #expect(a.fileSHA256 == b.fileSHA256)
    }

    @Test("a binary plist <date> keeps its fraction and its calendar: the seconds it holds are stored exactly")
    func binaryPlistDatesAreExact() throws {
        let run = try ImportRun()
        defer { run.directory.remove() }
        // 1500-03-01T12:00:00.75Z: -15804936000 s (proleptic Gregorian, as Python computes it) + 0.75.
        let founded = Date(timeIntervalSinceReferenceDate: -15_804_935_999.25)
        let object: [String: Any] = ["Groups": [["name": "A"]], "Teams": [["name": "Polen", "group": "A", "founded": founded]]]
        let path = run.directory.path("setup.bplist")
        try PropertyListSerialization.data(fromPropertyList: object, format: .binary, options: 0).write(to: URL(fileURLWithPath: path))
        try run.build(paths: [path])
        #expect(try run.rows("SELECT ZFOUNDED FROM ZTEAM") == ["-15804935999.25"])
    }

    @Test("elements and plist items of one shape reuse what their names mean; another order, a namespaced attribute, an escaped '&', a <true/> or a blank <string> still read right")
    func repeatedShapes() throws {
        let run = try ImportRun()
        defer { run.directory.remove() }
        try run.build([("players.xml", """
            <Cup xmlns:seedgen="urn:seedgen:source">
                <Player name="A" number="1" captain="YES"/>
                <Player name="B &amp; C" number="2" captain="NO"/>
                <Player number="3" name="D" captain="YES"/>
                <Player name="E" number="4" captain="NO" seedgen:id="e"/>
                <Player name="F" number="5" captain="YES" team="Polen"/>
                <Player name="G" number="6" captain="NO" team="Polen"/>
                <Group name="A"><Team name="Polen"/></Group>
            </Cup>
            """), ("players.plist", """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict><key>Players</key><array>
            <dict><key>name</key><string>H</string><key>number</key><integer>7</integer><key>captain</key><true/></dict>
            <dict><key>name</key><string>I</string><key>number</key><integer>8</integer><key>captain</key><false/></dict>
            <dict><key>number</key><integer>9</integer><key>name</key><string>J</string></dict>
            <dict><key>name</key><string> </string><key>number</key><integer>10</integer><key>captain</key><true/></dict>
            </array></dict></plist>
            """)])
        #expect(try run.rows("SELECT h.ZNAME, h.ZNUMBER, h.ZCAPTAIN, IFNULL(t.ZNAME, '-') FROM ZHUMAN h LEFT JOIN ZTEAM t ON t.Z_PK = h.ZTEAM ORDER BY h.ZNUMBER")
            == ["A|1|1|-", "B & C|2|0|-", "D|3|1|-", "E|4|0|-", "F|5|1|Polen", "G|6|0|Polen", "H|7|1|-", "I|8|0|-", "J|9|0|-", " |10|1|-"])
        #expect(try run.verify().isEmpty)
    }

    @Test("XML and binary property lists: plural and keyed sections, nested objects, references by key")
    func propertyLists() throws {
        let plist = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0">
            <dict>
                <key>Groups</key>
                <array>
                    <dict><key>name</key><string>A</string>
                          <key>teams</key><array><string>Polen</string></array></dict>
                </array>
                <key>Teams</key>
                <dict>
                    <key>Polen</key>
                    <dict>
                        <key>founded</key><date>1919-12-20T00:00:00Z</date>
                        <key>members</key>
                        <array>
                            <dict><key>name</key><string>Franciszek Smuda</string><key>born</key><string>22.06.1948</string></dict>
                        </array>
                    </dict>
                </dict>
            </dict>
            </plist>
            """
        let run = try ImportRun()
        defer { run.directory.remove() }
        // Human is abstract: a nested member must name a concrete entity, which a plain dict cannot.
        let error = try #require(throws: InputError.self) { try run.build([("setup.plist", plist)]) }
        #expect(error.message.contains("entity 'Human' is abstract"), "\(error)")
        #expect(error.location.line == 17)

        let fixed = plist.replacingOccurrences(of: "<key>members</key>", with: "<key>venues</key>")
            .replacingOccurrences(of: "<key>born</key><string>22.06.1948</string>", with: "")
            .replacingOccurrences(of: "Franciszek Smuda", with: "Stadion Miejski")
        let xml = try ImportRun()
        defer { xml.directory.remove() }
        try xml.build([("setup.plist", fixed)])
        #expect(try xml.verify().isEmpty)
        #expect(try xml.rows("SELECT t.ZNAME, t.ZFOUNDED, g.ZNAME FROM ZTEAM t JOIN ZGROUP g ON g.Z_PK = t.ZGROUP") == ["Polen|-2557267200|A"])
        #expect(try xml.rows("SELECT COUNT(*) FROM Z_5HOSTS") == ["1"])

        // The same content as a binary plist gives the same rows.
        let object = try PropertyListSerialization.propertyList(from: Data(fixed.utf8), format: nil)
        let binary = try PropertyListSerialization.data(fromPropertyList: object, format: .binary, options: 0)
        let bin = try ImportRun()
        defer { bin.directory.remove() }
        let path = bin.directory.path("setup.bplist")
        try binary.write(to: URL(fileURLWithPath: path))
        try bin.build(paths: [path])
        #expect(try bin.rows("SELECT t.ZNAME, t.ZFOUNDED, g.ZNAME FROM ZTEAM t JOIN ZGROUP g ON g.Z_PK = t.ZGROUP") == ["Polen|-2557267200|A"])
    }

    /// An app team's own format: `<row kind="Team" key="Polen" group="A"/>`.
    final class RowFormatDelegate: XMLStreamDelegate {
        let repository: SeedRepository
        init(repository: SeedRepository) { self.repository = repository }

        func startElement(_ name: String, attributes: XMLAttributes, at location: InputLocation) throws(InputError) {
            guard name == "row", let kind = attributes["kind"], let key = attributes["key"] else { return }
            var values = [(name: "name", value: key)]
            if let group = attributes["group"] { values.append((name: "group", value: group)) }
            try repository.insert(entity: kind, values: values, at: location)
        }

        func endElement(_ name: String, at location: InputLocation) throws(InputError) {}
    }

    @Test("an app's own parser delegate writes through the same repository")
    func customDelegate() throws {
        let run = try ImportRun()
        defer { run.directory.remove() }
        try run.build([("rows.xml", """
            <rows><row kind="Team" key="Polen" group="A"/><row kind="Group" key="A"/></rows>
            """)], delegate: { RowFormatDelegate(repository: $0) })
        #expect(try run.rows("SELECT t.ZNAME, g.ZNAME FROM ZTEAM t JOIN ZGROUP g ON g.Z_PK = t.ZGROUP") == ["Polen|A"])
        #expect(try run.verify().isEmpty)
    }

    /// Rows are written on a second thread in batches: before, a row SQLite refused as too big
    /// failed there, and the error named the object being read when it surfaced (thousands of
    /// lines later). SQLite's bound is lowered here so a test needs no gigabyte of input.
    @Test("an object too big for one SQLite row is an error at its own place, not at a later object's")
    func rowTooBigNamedWhereGiven() throws {
        let run = try ImportRun()
        defer { run.directory.remove() }
        var xml = "<Cup>\n"
        for number in 0..<6_000 { xml += "<Group name=\"G\(number)\"/>\n" }
        xml += "<Group name=\"" + String(repeating: "x", count: 150_000) + "\"/>\n"
        for number in 6_000..<12_000 { xml += "<Group name=\"G\(number)\"/>\n" }
        let input = try run.directory.write(xml + "</Cup>\n", to: "big.xml")
        let builder = try StoreBuilder(layout: run.layout, outputPath: run.output)
        builder.lowerRowLengthLimit(to: 100_000)
        let importer = SeedImporter(builder: builder)
        let error = try #require(throws: InputError.self) {
            try importer.importFile(input)
            try importer.finish()
        }
        #expect(error.location.line == 6_002, "\(error)")
        #expect(error.message.contains("Group: the object's values take") && error.message.contains("SQLite stores at most 100000 bytes in a row"), "\(error)")
    }

    @Test("objects of an entity with no column of its own (no attribute, no to-one) are written: it trapped (2...1, a range the wrong way round)")
    func entityWithoutColumns() throws {
        let run = try ImportRun(model: """
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
                <entity name="Marker" representedClassName="Marker" syncable="YES"/>
                <entity name="Tag" representedClassName="Tag" syncable="YES">
                    <relationship name="markers" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Marker"/>
                </entity>
            </model>
            """)
        defer { run.directory.remove() }
        let summary = try run.build([("markers.xml", "<Markers><Marker/><Marker/><Tag/></Markers>")])
        #expect(summary.rowCounts == ["Marker": 2, "Tag": 1])
        #expect(try run.rows("SELECT Z_PK, Z_ENT, Z_OPT FROM ZMARKER ORDER BY Z_PK") == ["1|1|1", "2|1|1"])
        #expect(try run.verify().isEmpty)
    }
}
