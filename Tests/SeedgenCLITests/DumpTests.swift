import Foundation
import SeedStore
import SeedgenTestSupport
import Testing

@Suite("seedgen dump")
struct DumpTests {
    /// build -> dump -> build; returns both sha256 values and the dump's text (for a plist dump,
    /// checks that the rebuilt store dumps the same text instead, and returns no sha256).
    static func roundTrip(model: String, inputs: [String], format: String = "xml", dates: String = "iso8601", in directory: TemporaryDirectory) throws -> (String, String, String) {
        struct Summary: Decodable { var sha256: String }
        let first = try SeedgenTool.run(["build", "--model", model, "--output", directory.path("first.sqlite"), "--json"] + inputs)
        #expect(first.status == 0, "\(first.error)")
        let dump = try SeedgenTool.run(["dump", directory.path("first.sqlite"), "--model", model, "--format", format, "--dates", dates, "--output", directory.path("dump.xml")])
        #expect(dump.status == 0, "\(dump.error)")
        let second = try SeedgenTool.run(["build", "--model", model, "--output", directory.path("second.sqlite"), "--json", directory.path("dump.xml")])
        #expect(second.status == 0, "\(second.error)")
        let decoder = JSONDecoder()
        let text = try String(contentsOfFile: directory.path("dump.xml"), encoding: .utf8)
        if format == "plist" {
            // Sections go entity by entity: sub-entities sharing a table are numbered in another
            // order than the first build's, so the same objects are compared, not the bytes.
            let again = try SeedgenTool.run(["dump", directory.path("second.sqlite"), "--model", model, "--format", format, "--dates", dates])
            #expect(again.output == text, "the plist dump of the rebuilt store differs")
            return ("", "", text)
        }
        return (try decoder.decode(Summary.self, from: Data(first.output.utf8)).sha256,
                try decoder.decode(Summary.self, from: Data(second.output.utf8)).sha256, text)
    }

    @Test("the EM-Plan seed rebuilt from its dump is byte-identical (entity XML) or holds the same objects (plist); keyed objects are named by their keys",
          arguments: ["xml", "plist"])
    func emPlan(_ format: String) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let folder = Corpus.packageRoot.appendingPathComponent("Seeds/EMPlan")
        let (first, second, dump) = try Self.roundTrip(
            model: folder.appendingPathComponent("EMPlan.xcdatamodeld").path,
            inputs: [folder.appendingPathComponent("setup.plist").path], format: format, in: directory)
        #expect(first == second)
        if format == "xml" {
            #expect(dump.contains("<Team name=\"Deutschland\" group=\"B\"/>"))
            #expect(dump.contains("homePlaceholder=\"Sieger Halbfinale 1\""))
        } else {
            #expect(dump.contains("<dict><key>name</key><string>Deutschland</string><key>group</key><string>B</string></dict>"), "\(dump.prefix(2000))")
        }
    }

    @Test("every attribute type survives the round trip exactly, text with quotes and line breaks too", arguments: ["xml", "plist"])
    func types(_ format: String) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let model = try directory.write("""
            <?xml version="1.0"?>
            <model><entity name="Thing">
                <attribute name="data" optional="YES" attributeType="Binary"/>
                <attribute name="day" optional="YES" attributeType="Date"><userInfo><entry key="dateFormat" value="dd.MM.yyyy"/></userInfo></attribute>
                <attribute name="flag" optional="YES" attributeType="Boolean"/>
                <attribute name="id" optional="YES" attributeType="UUID"/>
                <attribute name="ratio" optional="YES" attributeType="Float"/>
                <attribute name="text" optional="YES" attributeType="String"/>
                <attribute name="value" optional="YES" attributeType="Double"/>
                <attribute name="when" optional="YES" attributeType="Date"/>
            </entity></model>
            """, to: "contents")
        let input = try directory.write("""
            <Things>
              <Thing data="AAECAwQ=" day="24.12.2011" flag="true" id="E621E1F8-C36C-495A-93FC-0C247A3E6E5F" ratio="0.1"
                     text="a &quot;quoted&quot; &amp; &lt;odd&gt;&#10;second line&#9;tab" value="0.30000000000000004" when="2012-06-08T16:00:00.123Z"/>
              <Thing text="  spaced  "/>
            </Things>
            """, to: "things.xml")
        let (first, second, dump) = try Self.roundTrip(model: model, inputs: [input], format: format, in: directory)
        #expect(first == second, "\(dump)")
        #expect(dump.contains(format == "xml" ? "value=\"0.30000000000000004\"" : "<real>0.30000000000000004</real>"), "\(dump)")
        #expect(dump.contains("&#10;second line&#9;tab"))
        // Dates as the sources write them (ISO 8601, the attribute's own pattern), or as seconds.
        #expect(dump.contains(format == "xml" ? "when=\"2012-06-08T16:00:00.123Z\"" : "<key>when</key><string>2012-06-08T16:00:00.123Z</string>"), "\(dump)")
        #expect(dump.contains(format == "xml" ? "day=\"24.12.2011\"" : "<key>day</key><string>24.12.2011</string>"), "\(dump)")
        let (firstSeconds, secondSeconds, seconds) = try Self.roundTrip(model: model, inputs: [input], format: format, dates: "seconds", in: directory)
        #expect(firstSeconds == secondSeconds && firstSeconds == first)
        #expect(seconds.contains("@360864000.123") && seconds.contains("@346377600"), "\(seconds)")
    }

    @Test("many-to-many (both sides), an ordered one-to-many and keyless objects dump and rebuild the same; bad arguments are exit 2",
          arguments: ["xml", "plist"])
    func everyRelationshipKind(_ format: String) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let model = try directory.write(CupModel.contents, to: "Cup.xcdatamodel/contents")
        let input = try directory.write("""
            <Cup>
            <Group name="A"><Team name="Polen"/><Team name="Griechenland"/></Group>
            <Team name="Deutschland" group="A"><members><Player name="Neuer" number="1"/><Coach name="Löw"/><Player name="Lahm"/></members>
                <venues><Stadium name="Arena Lwiw"/><Stadium name="Nationalstadion"/></venues></Team>
            <Stadium name="Nationalstadion"><Team name="Polen"/></Stadium>
            </Cup>
            """, to: "cup.xml")
        let (first, second, dump) = try Self.roundTrip(model: model, inputs: [input], format: format, in: directory)
        #expect(first == second, "\(dump)")
        if format == "xml" {
            // The ordered members are the team's list, in order; many-to-many from one side.
            #expect(dump.contains("seedgen:members=\"#Player-1 #Coach-1 #Player-2\""), "\(dump)")
            #expect(dump.contains("seedgen:hosts=") != dump.contains("seedgen:venues="), "\(dump)")
        }
        #expect(try SeedgenTool.run(["dump", directory.path("missing.sqlite"), "--model", model]).status == 2)
        #expect(try SeedgenTool.run(["dump", directory.path("first.sqlite"), "--model", model, "--format", "json"]).status == 2)
    }

    @Test("a keyed to-one to an object written later in the dump names it by identifier, destinations come first where the model allows: the rebuild numbers objects as the store does")
    func forwardKeys() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try directory.write("""
            <?xml version="1.0"?>
            <model>
                <entity name="Person">
                    <attribute name="name" attributeType="String"/>
                    <relationship name="manager" optional="YES" maxCount="1" destinationEntity="Person" inverseName="reports" inverseEntity="Person"/>
                    <relationship name="reports" optional="YES" toMany="YES" destinationEntity="Person" inverseName="manager" inverseEntity="Person"/>
                    <relationship name="team" optional="YES" maxCount="1" destinationEntity="Team" inverseName="people" inverseEntity="Team"/>
                    <uniquenessConstraints><uniquenessConstraint><constraint value="name"/></uniquenessConstraint></uniquenessConstraints>
                </entity>
                <entity name="Team">
                    <attribute name="name" attributeType="String"/>
                    <relationship name="people" optional="YES" toMany="YES" destinationEntity="Person" inverseName="team" inverseEntity="Person"/>
                    <uniquenessConstraints><uniquenessConstraint><constraint value="name"/></uniquenessConstraint></uniquenessConstraints>
                </entity>
            </model>
            """, to: "M.xcdatamodel/contents")
        // Ann names Cid before Cid is written (Cid takes Z_PK 2 at first sight), and every person
        // names a team written after them (Red is team 1).
        let input = try directory.write("""
            <Org>
                <Person name="Ann" manager="Cid" team="Red"/>
                <Person name="Bob" manager="Ann" team="Blue"/>
                <Person name="Cid" team="Red"/>
                <Team name="Blue"/>
                <Team name="Red"/>
            </Org>
            """, to: "org.xml")
        for format in ["xml", "plist"] {
            let (first, second, dump) = try Self.roundTrip(model: directory.path("M.xcdatamodel"), inputs: [input], format: format, in: directory)
            #expect(first == second, "\(format)")
            if format == "xml" {
                #expect(dump.contains("<Team name=\"Red\"/>\n  <Team name=\"Blue\"/>\n  <Person name=\"Ann\" seedgen:manager=\"#Person-2\" team=\"Red\"/>"), "\(dump)")
                #expect(dump.contains("<Person seedgen:id=\"#Person-2\" name=\"Cid\" team=\"Red\"/>\n  <Person name=\"Bob\" manager=\"Ann\" team=\"Blue\"/>"), "\(dump)")
            }
        }
    }

    /// Core Data lets an app set an optional attribute that has a default to nil: its row holds
    /// NULL. The dump says so (`seedgen:nil`, `@nil`); before, the rebuild filled the default in.
    @Test("a NULL where the model gives a default (surfjournal's rating set to nil) survives dump → build → dump, XML and plist",
          .enabled(if: Corpus.isAvailable, Comment(rawValue: Corpus.skipMessage)), arguments: ["xml", "plist"])
    func nullWithDefault(_ format: String) throws {
        let store = try #require(Corpus.allStores.first { $0.name == "surfjournal" })
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let copy = try directory.copy(store.store)
        try SQLiteShell.execute("UPDATE ZJOURNALENTRY SET ZRATING = NULL WHERE Z_PK = (SELECT MIN(Z_PK) FROM ZJOURNALENTRY)", on: copy)
        let dump = directory.path("dump.\(format)")
        #expect(try SeedgenTool.run(["dump", copy, "--model", store.model.path, "--format", format, "--output", dump]).status == 0)
        let text = try String(contentsOfFile: dump, encoding: .utf8)
        #expect(text.contains(format == "xml" ? #"seedgen:nil="rating""# : "<key>@nil</key><array><string>rating</string></array>"))
        let rebuilt = directory.path("rebuilt.sqlite")
        let build = try SeedgenTool.run(["build", "--model", store.model.path, "--output", rebuilt, "--framework-version",
                                         String(try Self.frameworkVersion(of: store.store)), "--quiet", dump])
        #expect(build.status == 0, "\(build.error)")
        let again = try SeedgenTool.run(["dump", rebuilt, "--model", store.model.path, "--format", format])
        #expect(again.output == text, "the dumps differ")
        #expect(try SQLiteShell.rows(rebuilt, "SELECT COUNT(*) FROM ZJOURNALENTRY WHERE ZRATING IS NULL") == ["1"])
    }

    /// `NSPersistenceFrameworkVersion` of a store, to rebuild it in its own era.
    static func frameworkVersion(of store: URL) throws -> Int {
        try #require(try StoreMetadata(decoding: SQLiteShell.metadataPlist(of: store.path)).frameworkVersion)
    }

    @Test("every corpus store: dump, rebuild in its own era, dump again gives the same text (XML and plist); wire's Integer default 'NO' is read as 0 with a warning",
          .enabled(if: Corpus.isAvailable, Comment(rawValue: Corpus.skipMessage)), arguments: Corpus.allStores)
    func corpusRoundTrip(_ store: Corpus.Store) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let era = String(try Self.frameworkVersion(of: store.store))
        for format in ["xml", "plist"] {
            let dump = directory.path("dump.\(format)")
            let first = try SeedgenTool.run(["dump", store.store.path, "--model", store.model.path, "--format", format, "--output", dump])
            #expect(first.status == 0, "\(first.error)")
            let rebuilt = directory.path("rebuilt-\(format).sqlite")
            let build = try SeedgenTool.run(["build", "--model", store.model.path, "--output", rebuilt, "--framework-version", era, "--quiet", dump])
            if store.name == "wire" {
                // Its model gives an Integer 32 the default 'NO' (read as 0, with a warning naming
                // the model's line); and one value lives in an external file the corpus lacks.
                #expect(build.error.contains("contents:59: 'Conversation.mutedStatus': the default value 'NO' is no Integer 32; read as 0"), "\(build)")
                #expect(first.error.contains("imageMediumData is kept in the external file"), "\(first.error)")
            }
            #expect(build.status == 0, "\(build.error)")
            let again = try SeedgenTool.run(["dump", rebuilt, "--model", store.model.path, "--format", format, "--output", directory.path("again.\(format)")])
            #expect(again.status == 0, "\(again.error)")
            let (before, after) = (try String(contentsOfFile: dump, encoding: .utf8), try String(contentsOfFile: directory.path("again.\(format)"), encoding: .utf8))
            #expect(before == after, "\(store.name) \(format): the dumps differ")
            #expect(try SeedgenTool.run(["verify", rebuilt, "--model", store.model.path]).status == 0)
        }
    }
}

/// Values longer than libxml2 reads as one XML attribute, and SwiftData lists, in a dump.
@Suite("seedgen dump: long values")
struct DumpLongValueTests {
    static let model = """
        import SwiftData
        @Model class Note {
            @Attribute(.unique) var name: String
            var text: String?
            var labels: [String] = []
        }
        """

    @Test("a text past 10,000,000 bytes: entity XML is refused up front naming the value (no file written), a property list dump builds back byte for byte; a [String] is a plist <array>")
    func longText() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let model = try directory.write(Self.model, to: "Model.swift")
        let long = String(repeating: "long & ", count: 1_500_001)
        let data = try directory.write("""
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict><key>Notes</key><array>
              <dict><key>name</key><string>a</string><key>text</key><string>\(long.replacingOccurrences(of: "&", with: "&amp;"))</string></dict>
              <dict><key>name</key><string>b</string><key>labels</key><array><string>x</string><string>y "z"</string><string>x</string></array></dict>
            </array></dict></plist>
            """, to: "notes.plist")
        let build = try SeedgenTool.run(["build", "--model", model, "--output", directory.path("a.sqlite"), data])
        #expect(build.status == 0, "\(build.error)")
        let xml = try SeedgenTool.run(["dump", directory.path("a.sqlite"), "--model", model, "-o", directory.path("dump.xml")])
        #expect(xml.status == 1 && xml.error.contains("Note.text: \(10_500_007 + 4 * 1_500_001) bytes as an XML attribute, past the 10000000 bytes libxml2 reads as one") && xml.error.contains("--format plist"), "\(xml.error)")
        #expect(!FileManager.default.fileExists(atPath: directory.path("dump.xml")))
        let plist = try SeedgenTool.run(["dump", directory.path("a.sqlite"), "--model", model, "--format", "plist", "-o", directory.path("dump.plist")])
        #expect(plist.status == 0, "\(plist.error)")
        let dumped = try String(contentsOfFile: directory.path("dump.plist"), encoding: .utf8)
        #expect(dumped.contains("<key>labels</key><array><string>x</string><string>y &quot;z&quot;</string><string>x</string></array>"), "a [String] as the list it is")
        let again = try SeedgenTool.run(["build", "--model", model, "--output", directory.path("b.sqlite"), directory.path("dump.plist")])
        #expect(again.status == 0, "\(again.error)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: directory.path("a.sqlite"))) == Data(contentsOf: URL(fileURLWithPath: directory.path("b.sqlite"))))
    }
}
