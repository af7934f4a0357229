import Foundation
import SeedgenTestSupport
import Testing

/// One bad input: the files, and the line and words the error must name.
struct BadInput: Sendable, CustomStringConvertible {
    var description: String
    var file: String
    var bytes: [UInt8]
    var line: Int
    var words: [String]

    init(_ description: String, _ text: String, line: Int, _ words: [String], file: String = "in.xml") {
        self.init(description, bytes: Array(text.utf8), line: line, words, file: file)
    }

    init(_ description: String, bytes: [UInt8], line: Int, _ words: [String], file: String = "in.xml") {
        self.description = description
        self.file = file
        self.bytes = bytes
        self.line = line
        self.words = words
    }

    /// An XML property list whose root dictionary holds `body` on line 4.
    static func plist(_ description: String, _ body: String, _ words: [String]) -> BadInput {
        BadInput(description, """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0">
            <dict>
            \(body)
            </dict>
            </plist>
            """, line: 4, words, file: "setup.plist")
    }
}

@Suite("Bad input: a clear error, exit 1, nothing written")
struct BadInputTests {
    static let cases: [BadInput] = [
        BadInput("malformed XML", "<Cup>\n<Team name=\"X\">\n</Cup>\n", line: 3, ["malformed XML"]),
        BadInput("unknown entity", "<Cup>\n<Tem name=\"X\"/>\n</Cup>", line: 2, ["unknown entity 'Tem'", "; did you mean 'Team'?"]),
        BadInput("an attribute's name with a slip", "<Cup>\n<Group name=\"A\"/>\n<Team nmae=\"X\" group=\"A\"/>\n</Cup>", line: 3,
                 ["entity 'Team' has no attribute or to-one relationship 'nmae'; did you mean 'name'?"]),
        BadInput("a section's name with a slip", "{\"Temas\": [{\"name\": \"X\"}]}", line: 1, ["section 'Temas' names no entity", "did you mean 'Teams'?"], file: "in.json"),
        BadInput("an object's key with a slip", "{\"Groups\": [{\"nam\": \"A\"}]}", line: 1, ["entity 'Group' has no attribute or relationship 'nam'; did you mean 'name'?"], file: "in.json"),
        BadInput("unknown attribute", "<Cup>\n<Group name=\"A\"/>\n<Team name=\"X\" group=\"A\" colour=\"red\"/>\n</Cup>", line: 3,
                 ["entity 'Team' has no attribute or to-one relationship 'colour'"]),
        BadInput("date not in the attribute's pattern", "<Cup>\n<Coach name=\"L\" born=\"1960-02-03\"/>\n</Cup>", line: 2,
                 ["Coach.born", "'1960-02-03' is not a date in the format dd.MM.yyyy"]),
        BadInput("date not ISO 8601", "<Cup>\n<Group name=\"A\"/>\n<Team name=\"X\" group=\"A\" founded=\"28.01.1900\"/>\n</Cup>", line: 3,
                 ["Team.founded", "ISO 8601"]),
        BadInput("Integer 16 overflow", "<Cup>\n<Player name=\"P\" number=\"40000\"/>\n</Cup>", line: 2,
                 ["Player.number", "'40000' does not fit Integer 16"]),
        BadInput("not a Double", "<Cup>\n<Player name=\"P\" height=\"abc\"/>\n</Cup>", line: 2, ["Player.height", "'abc' is not a Double"]),
        BadInput("not a Boolean", "<Cup>\n<Player name=\"P\" captain=\"perhaps\"/>\n</Cup>", line: 2, ["Player.captain", "is not a Boolean"]),
        BadInput("missing required value", "<Cup>\n<Player number=\"3\"/>\n</Cup>", line: 2, ["Player #1", "the required attribute 'name' is missing"]),
        BadInput("dangling reference", "<Cup>\n<Player name=\"A\" team=\"Nowhere\"/>\n</Cup>", line: 2, ["Player.team", "no Team has the key 'Nowhere'"]),
        BadInput("an attribute given a value and nil", "<Cup xmlns:seedgen=\"urn:seedgen:source\">\n<Player name=\"A\" captain=\"YES\" seedgen:nil=\"captain\"/>\n</Cup>", line: 2,
                 ["Player.captain is given both a value and nil"]),
        BadInput("a required attribute given nil", "<Cup xmlns:seedgen=\"urn:seedgen:source\">\n<Player seedgen:nil=\"name\"/>\n</Cup>", line: 2,
                 ["Player.name is required and cannot be nil"]),
        BadInput("nil naming a relationship", "<Cup xmlns:seedgen=\"urn:seedgen:source\">\n<Player name=\"A\" seedgen:nil=\"team\"/>\n</Cup>", line: 2,
                 ["nil names 'team', which is not an attribute of Player"]),
        BadInput("two values for one attribute of one key", "<Cup>\n<Player name=\"A\" number=\"1\"/>\n<Player name=\"A\" number=\"2\"/>\n</Cup>", line: 3,
                 ["attribute 'number' is given two different values, 1 and 2", "first defined at"]),
        BadInput("two destinations for one to-one", "<Cup>\n<Group name=\"A\"/>\n<Group name=\"B\"/>\n<Team name=\"X\" group=\"A\"/>\n<Team name=\"X\" group=\"B\"/>\n</Cup>",
                 line: 5, ["Team.group", "two different values"]),
        BadInput("a nested object that names another owner by key", "<Cup>\n<Group name=\"B\"/>\n<Group name=\"A\">\n<Team name=\"X\" group=\"B\"/>\n</Group>\n</Cup>",
                 line: 4, ["Team.group of Team #1 is given two different values"]),
        BadInput("a nested object that names a later owner by key", "<Cup>\n<Group name=\"A\">\n<Team name=\"X\" group=\"B\"/>\n</Group>\n<Group name=\"B\"/>\n</Cup>",
                 line: 3, ["Team.group of Team #1 is given two different values", "the key 'B'"]),
        BadInput("abstract entity", "<Cup>\n<Human name=\"A\"/>\n</Cup>", line: 2, ["entity 'Human' is abstract", "Coach, Player"]),
        BadInput("one key for two entities", "<Cup>\n<Coach name=\"A\"/>\n<Player name=\"A\"/>\n</Cup>", line: 3, ["conflicts with the Coach of the same key"]),
        BadInput("external entity", "<?xml version=\"1.0\"?>\n<!DOCTYPE Cup [<!ENTITY x SYSTEM \"file:///etc/passwd\">]>\n<Cup><Group name=\"&x;\"/></Cup>",
                 line: 2, ["entity declarations are not accepted (entity 'x')"]),
        BadInput("billion laughs", "<?xml version=\"1.0\"?>\n<!DOCTYPE Cup [\n<!ENTITY a \"aaaaaaaaaa\">\n<!ENTITY b \"&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;\">\n]>\n<Cup><Group name=\"&b;\"/></Cup>",
                 line: 3, ["entity declarations are not accepted"]),
        BadInput("wrong encoding", bytes: Array("<Cup>\n<Group name=\"".utf8) + [0xC3, 0x28] + Array("\"/>\n</Cup>".utf8), line: 2, ["UTF-8"]),
        BadInput("text inside an object", "<Cup>\n<Group name=\"A\">hello</Group>\n</Cup>", line: 2, ["unexpected text 'hello'"]),
        BadInput("to-many given as a value", "<Cup>\n<Group name=\"A\" teams=\"X\"/>\n</Cup>", line: 2, ["Group.teams is a to-many relationship"]),
        BadInput("nested object that is not related", "<Cup>\n<Group name=\"A\">\n<Stadium name=\"S\"/>\n</Group>\n</Cup>", line: 3,
                 ["no relationship of Group leads to Stadium"]),
        BadInput("required relationship not set", "<Cup>\n<Team name=\"X\"/>\n</Cup>", line: 2, ["Team #1", "the required relationship 'group' is not set"]),
        BadInput("attributes on the root", "<Cup year=\"2012\">\n</Cup>", line: 1, ["the root element <Cup> takes no attributes"]),
        BadInput("undeclared entity", "<Cup>\n<Group name=\"&nope;\"/>\n</Cup>", line: 2, ["nope"]),
        BadInput("empty file", "", line: 1, ["no root element: the file holds no XML element"]),
        BadInput("white space only", "  \n\t\n", line: 3, ["no root element"]),
        BadInput("a byte-order mark only", bytes: [0xEF, 0xBB, 0xBF], line: 1, ["no root element"]),
        BadInput("an internal DTD subset with an attribute default", "<?xml version=\"1.0\"?>\n<!DOCTYPE Cup [\n<!ATTLIST Player number CDATA \"7\">\n]>\n<Cup><Player name=\"P\"/></Cup>",
                 line: 3, ["an internal DTD subset is not accepted (<!ATTLIST Player number"]),
        BadInput("an internal DTD subset with an element declaration", "<?xml version=\"1.0\"?>\n<!DOCTYPE Cup [\n<!ELEMENT Cup ANY>\n]>\n<Cup/>",
                 line: 3, ["an internal DTD subset is not accepted (<!ELEMENT Cup"]),
        BadInput("relationship wrapper with attributes", "<Cup>\n<Group name=\"A\">\n<teams n=\"1\"/>\n</Group>\n</Cup>", line: 3,
                 ["wraps the objects of Group.teams"]),
        BadInput("object of the wrong entity in a relationship", "<Cup>\n<Group name=\"A\">\n<teams><Stadium name=\"S\"/></teams>\n</Group>\n</Cup>", line: 3,
                 ["Group.teams leads to Team, not to Stadium"]),
        .plist("plist: unknown section", "<key>Referees</key><array/>", ["section 'Referees' names no entity"]),
        .plist("plist: section that is a single value", "<key>Teams</key><string>x</string>", ["section 'Teams' must be an <array> or a <dict>"]),
        .plist("plist: a list where one value belongs", "<key>Groups</key><array><dict><key>name</key><array/></dict></array>",
               ["Group.name takes a single value, not <array>"]),
        .plist("plist: keyed object naming another key", "<key>Groups</key><dict><key>A</key><dict><key>name</key><string>B</string></dict></dict>",
               ["Group 'A' gives name 'B'"]),
        .plist("plist: bad <date>", "<key>Teams</key><array><dict><key>name</key><string>X</string><key>founded</key><date>yesterday</date></dict></array>",
               ["Team.founded: 'yesterday' is not an ISO 8601 <date>"]),
        .plist("plist: unknown key", "<key>Groups</key><array><dict><key>name</key><string>A</string><key>colour</key><string>red</string></dict></array>",
               ["entity 'Group' has no attribute or relationship 'colour'"]),
        .plist("plist: dangling key in a to-many", "<key>Groups</key><array><dict><key>name</key><string>A</string><key>teams</key><array><string>Nowhere</string></array></dict></array>",
               ["Group.teams: no Team has the key 'Nowhere'"]),
        .plist("plist: element that is not a plist's", "<key>Groups</key><array><foo/></array>", ["<foo> is not a property-list element"]),
        BadInput("binary plist: malformed", "bplist00 this is not a property list", line: 1, ["malformed binary property list"], file: "setup.bplist"),
        // External entities and DTDs in every position: never read, refused.
        BadInput("external parameter entity", "<?xml version=\"1.0\"?>\n<!DOCTYPE Cup [<!ENTITY % p SYSTEM \"file:///etc/passwd\"> %p;]>\n<Cup/>",
                 line: 2, ["entity declarations are not accepted (entity 'p')"]),
        BadInput("external entity in an attribute of the root's child", "<?xml version=\"1.0\"?>\n<!DOCTYPE Cup [<!ENTITY x SYSTEM \"http://127.0.0.1:9/x\">]>\n<Cup><Player name=\"&x;\"/></Cup>",
                 line: 2, ["entity declarations are not accepted (entity 'x')"]),
        BadInput("external entity in text", "<?xml version=\"1.0\"?>\n<!DOCTYPE Cup [<!ENTITY x SYSTEM \"file:///etc/hostname\">]>\n<Cup>&x;</Cup>",
                 line: 2, ["entity declarations are not accepted (entity 'x')"]),
        BadInput("internal entity", "<?xml version=\"1.0\"?>\n<!DOCTYPE Cup [<!ENTITY team \"Polen\">]>\n<Cup><Group name=\"&team;\"/></Cup>",
                 line: 2, ["entity declarations are not accepted (entity 'team')"]),
        BadInput("quadratic blow-up", "<?xml version=\"1.0\"?>\n<!DOCTYPE Cup [<!ENTITY a \"" + String(repeating: "a", count: 50_000) + "\">]>\n<Cup><Group name=\"&a;&a;&a;&a;&a;\"/></Cup>",
                 line: 2, ["entity declarations are not accepted (entity 'a')"]),
        BadInput("an undeclared entity in text", "<Cup>\n<Group name=\"A\">&unknown;</Group>\n</Cup>", line: 2, ["unknown"]),
        BadInput("a processing instruction is fine, a second root is not", "<?pi x?>\n<Cup/>\n<Cup/>", line: 3, ["malformed XML"]),
        // Encodings.
        BadInput("UTF-16 without a declaration matching", bytes: [0xFF, 0xFE] + Array("<Cup>\n<Group name=\"A\"/>\n</Cup".utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }),
                 line: 3, ["malformed XML"]),
        BadInput("an encoding libxml2 does not know", "<?xml version=\"1.0\" encoding=\"x-nonexistent\"?>\n<Cup/>", line: 1, ["malformed XML"]),
        BadInput("a NUL byte in a value", bytes: Array("<Cup>\n<Group name=\"A".utf8) + [0] + Array("\"/>\n</Cup>".utf8), line: 2, ["malformed XML"]),
        BadInput("an invalid character reference", "<Cup>\n<Group name=\"&#0;\"/>\n</Cup>", line: 2, ["malformed XML"]),
        // Number edges.
        BadInput("Integer 16 below its range", "<Cup>\n<Player name=\"P\" number=\"-32769\"/>\n</Cup>", line: 2, ["'-32769' does not fit Integer 16"]),
        BadInput("a fraction for an integer", "<Cup>\n<Player name=\"P\" number=\"1.5\"/>\n</Cup>", line: 2, ["'1.5' is not an Integer 16"]),
        BadInput("hex for an integer", "<Cup>\n<Player name=\"P\" number=\"0x10\"/>\n</Cup>", line: 2, ["'0x10' is not an Integer 16"]),
        BadInput("NaN for a Double", "<Cup>\n<Player name=\"P\" height=\"nan\"/>\n</Cup>", line: 2, ["'nan' is not a Double"]),
        BadInput("infinity for a Double", "<Cup>\n<Player name=\"P\" height=\"1e400\"/>\n</Cup>", line: 2, ["'1e400' does not fit a Double"]),
        BadInput("an empty number", "<Cup>\n<Player name=\"P\" height=\"\"/>\n</Cup>", line: 2, ["'' is not a Double"]),
        BadInput("a Boolean of 2", "<Cup>\n<Player name=\"P\" captain=\"2\"/>\n</Cup>", line: 2, ["is not a Boolean"]),
        // Date edges.
        BadInput("February 30", "<Cup>\n<Group name=\"A\"/>\n<Team name=\"X\" group=\"A\" founded=\"1900-02-30\"/>\n</Cup>", line: 3, ["Team.founded", "ISO 8601"]),
        BadInput("hour 24", "<Cup>\n<Group name=\"A\"/>\n<Team name=\"X\" group=\"A\" founded=\"1900-01-01T24:00:01Z\"/>\n</Cup>", line: 3, ["Team.founded"]),
        BadInput("a zone out of range", "<Cup>\n<Group name=\"A\"/>\n<Team name=\"X\" group=\"A\" founded=\"1900-01-01T00:00:00+25:00\"/>\n</Cup>", line: 3, ["Team.founded"]),
        BadInput("a date in the attribute's pattern with a 13th month", "<Cup>\n<Coach name=\"L\" born=\"03.13.1960\"/>\n</Cup>", line: 2,
                 ["Coach.born", "is not a date in the format dd.MM.yyyy"]),
        BadInput("an exact date that is not a number", "<Cup>\n<Coach name=\"L\" born=\"@soon\"/>\n</Cup>", line: 2, ["Coach.born"]),
        // Number, date and XML edges.
        BadInput("spaces inside an integer", "<Cup>\n<Player name=\"P\" number=\"1 2\"/>\n</Cup>", line: 2, ["'1 2' is not an Integer 16"]),
        BadInput("an integer past Int64", "<Cup>\n<Player name=\"P\" number=\"99999999999999999999\"/>\n</Cup>", line: 2, ["does not fit Integer 16"]),
        BadInput("a hexadecimal Double", "<Cup>\n<Player name=\"P\" height=\"0x1p3\"/>\n</Cup>", line: 2, ["'0x1p3' is not a Double"]),
        BadInput("a decimal comma", "<Cup>\n<Player name=\"P\" height=\"1,5\"/>\n</Cup>", line: 2, ["'1,5' is not a Double"]),
        BadInput("a leap second", "<Cup>\n<Group name=\"A\"/>\n<Team name=\"X\" group=\"A\" founded=\"1900-01-01T12:00:60Z\"/>\n</Cup>", line: 3, ["Team.founded", "ISO 8601"]),
        BadInput("a one-digit month", "<Cup>\n<Group name=\"A\"/>\n<Team name=\"X\" group=\"A\" founded=\"1900-1-01\"/>\n</Cup>", line: 3, ["'1900-1-01'"]),
        BadInput("an empty date", "<Cup>\n<Group name=\"A\"/>\n<Team name=\"X\" group=\"A\" founded=\"\"/>\n</Cup>", line: 3, ["Team.founded: ''"]),
        BadInput("a five-digit year", "<Cup>\n<Group name=\"A\"/>\n<Team name=\"X\" group=\"A\" founded=\"19000-01-01\"/>\n</Cup>", line: 3, ["'19000-01-01'"]),
        BadInput("text after a date", "<Cup>\n<Group name=\"A\"/>\n<Team name=\"X\" group=\"A\" founded=\"1900-01-01Zulu\"/>\n</Cup>", line: 3, ["'1900-01-01Zulu'"]),
        BadInput("April 31", "<Cup>\n<Coach name=\"L\" born=\"31.04.1960\"/>\n</Cup>", line: 2, ["'31.04.1960' is not a date in the format dd.MM.yyyy"]),
        BadInput("29 February of a common year", "<Cup>\n<Coach name=\"L\" born=\"29.02.1961\"/>\n</Cup>", line: 2, ["'29.02.1961'"]),
        BadInput("an XML attribute given twice", "<Cup>\n<Group name=\"A\" name=\"B\"/>\n</Cup>", line: 2, ["Attribute name redefined"]),
        BadInput("'<' in an attribute value", "<Cup>\n<Group name=\"A<B\"/>\n</Cup>", line: 2, ["Unescaped '<'"]),
        BadInput("a comment never closed", "<Cup>\n<!-- never closed\n<Group name=\"A\"/>\n</Cup>", line: 4, ["Comment not terminated"]),
        BadInput("CDATA inside an object", "<Cup>\n<Group name=\"A\"><![CDATA[x]]></Group>\n</Cup>", line: 2, ["unexpected text 'x'"]),
        BadInput("an end tag that does not match", "<Cup>\n<Group name=\"A\"></Team>\n</Cup>", line: 2, ["tag mismatch"]),
        // Property-list edges.
        .plist("plist: an integer past Int64", "<key>Players</key><array><dict><key>name</key><string>P</string><key>number</key><integer>99999999999999999999</integer></dict></array>", ["Player.number", "does not fit Integer 16"]),
        .plist("plist: a real that is not a number", "<key>Players</key><array><dict><key>name</key><string>P</string><key>height</key><real>tall</real></dict></array>", ["'tall' is not a Double"]),
        .plist("plist: a malformed date", "<key>Teams</key><array><dict><key>name</key><string>X</string><key>founded</key><date>yesterday</date></dict></array>", ["'yesterday' is not an ISO 8601 <date>"]),
        .plist("plist: one key twice in an object", "<key>Groups</key><array><dict><key>name</key><string>A</string><key>name</key><string>B</string></dict></array>", ["gives the key 'name' twice"]),
        // A keyed section's objects are read as trees: the tree reader's own check, in line and
        // (past 32 keys) by a set; keys compare as bytes (NFC and NFD É are two unknown keys).
        .plist("plist: one key twice in a keyed section's object", "<key>Groups</key><dict><key>A</key><dict><key>name</key><string>A</string><key>name</key><string>B</string></dict></dict>", ["gives the key 'name' twice"]),
        .plist("plist: one key twice after 40 in a keyed section's object", "<key>Groups</key><dict><key>A</key><dict>" + (0..<40).map { "<key>k\($0)</key><string>x</string>" }.joined() + "<key>k7</key><string>y</string></dict></dict>", ["gives the key 'k7' twice"]),
        .plist("plist: NFC and NFD keys in a keyed section's object are two keys", "<key>Groups</key><dict><key>A</key><dict><key>\u{C9}</key><string>x</string><key>E\u{301}</key><string>y</string></dict></dict>", ["no attribute or relationship '\u{C9}'"]),
        .plist("plist: one section twice", "<key>Groups</key><array/><key>Groups</key><array/>", ["gives the key 'Groups' twice"]),
        .plist("plist: one natural key twice in a keyed section", "<key>Groups</key><dict><key>A</key><dict/><key>A</key><dict/></dict>", ["gives the key 'A' twice"]),
        .plist("plist: an unknown section", "<key>Cats</key><array/>", ["section 'Cats' names no entity"]),
        .plist("plist: a section that is a string", "<key>Groups</key><string>A</string>", ["must be an <array> or a <dict>"]),
        .plist("plist: an item that is a number", "<key>Groups</key><array><integer>1</integer></array>", ["a Group must be a <dict>, not <integer>"]),
        .plist("plist: <true/> for a String", "<key>Groups</key><array><dict><key>name</key><true/></dict></array>", ["Group.name is String, not <true>"]),
        .plist("plist: <date> for a Double", "<key>Players</key><array><dict><key>name</key><string>P</string><key>height</key><date>2000-01-01T00:00:00Z</date></dict></array>", ["Player.height is Double, not <date>"]),
        .plist("plist: an element that is not a plist's", "<key>Groups</key><array><dict><key>name</key><str>A</str></dict></array>", ["<str> is not a property-list element"]),
        // Big inputs, generated: memory must not grow with them.
        BadInput("a value past libxml2's 10 MB limit", "<Cup>\n<Group name=\"" + String(repeating: "a", count: 10_500_000) + "\"/>\n</Cup>", line: 2, ["longer than 10,000,000 bytes"]),
        BadInput("a 5 MB value of an unknown attribute", "<Cup>\n<Group name=\"A\" colour=\"" + String(repeating: "a", count: 5_000_000) + "\"/>\n</Cup>", line: 2, ["'colour'"]),
        BadInput("100,000 attributes on one element", "<Cup>\n<Group " + (0..<100_000).map { "a\($0)=\"x\"" }.joined(separator: " ") + "/>\n</Cup>", line: 2, ["'a0'"]),
        BadInput("20 MB of text in an object", "<Cup>\n<Group name=\"A\">" + String(repeating: "t", count: 20_000_000) + "</Group>\n</Cup>", line: 2, ["unexpected text"]),
        BadInput("100,000 nested elements", "<Cup>\n" + String(repeating: "<a>", count: 100_000) + String(repeating: "</a>", count: 100_000) + "\n</Cup>", line: 2, ["unknown entity 'a'"]),
    ]

    @Test("at least 90 kinds of bad input are covered")
    func enoughCases() {
        #expect(Self.cases.count >= 90)
    }

    @Test("each bad input: exit 1, file:line and the entity/attribute named, no output, an older output kept", arguments: cases)
    func rejects(_ bad: BadInput) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try directory.write(CupModel.contents, to: "Cup.xcdatamodel/contents")
        let input = directory.path(bad.file)
        try Data(bad.bytes).write(to: URL(fileURLWithPath: input))
        let older = try directory.write("an older store", to: "kept.sqlite")
        for output in [directory.path("out.sqlite"), older] {
            let result = try SeedgenTool.run(["build", "--model", directory.path("Cup.xcdatamodel"), "--output", output, input])
            #expect(result.status == 1, "\(result)")
            #expect(SeedgenTool.staysWithinMemory(result, input: bad.bytes.count), "\(result.peakMemory ?? -1) bytes")
            #expect(result.error.contains("\(input):\(bad.line):"), "\(result.error)")
            for word in bad.words {
                #expect(result.error.contains(word), "\(result.error)")
            }
        }
        #expect(!FileManager.default.fileExists(atPath: directory.path("out.sqlite")))
        #expect(try String(contentsOfFile: older, encoding: .utf8) == "an older store")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path).sorted() == ["Cup.xcdatamodel", bad.file, "kept.sqlite"].sorted())
    }

    @Test("a model whose names carry SQL fails at load with the model line; nothing is run, no file appears")
    func modelNamesAreNeverSQL() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let model = try directory.write("""
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
            <entity name="Note">
            <attribute name="a VARCHAR); ATTACH 'X.DB' AS Q; CREATE TABLE Q.T (x); --" optional="YES" attributeType="String"/>
            </entity>
            </model>
            """, to: "Notes.xcdatamodel/contents")
        let input = try directory.write("<Notes>\n<Note/>\n</Notes>\n", to: "notes.xml")
        let result = try SeedgenTool.run(["build", "--model", directory.path("Notes.xcdatamodel"), "--output", "out.sqlite", input], in: directory.url)
        #expect(result.status == 1, "\(result)")
        #expect(result.error.contains("\(model):4: attribute name 'a VARCHAR); ATTACH"), "\(result.error)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path).sorted() == ["Notes.xcdatamodel", "notes.xml"])
    }

    @Test("a file whose name and first bytes tell no format is refused as of an unknown type, naming --format; --format names it; XML and JSON are known by their first character")
    func unknownFileType() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try directory.write(CupModel.contents, to: "Cup.xcdatamodel/contents")
        let model = directory.path("Cup.xcdatamodel"), output = directory.path("out.sqlite")
        let groups = try directory.write("name\nA\nB\n", to: "groups.txt")
        let bare = try directory.write("name\nA\n", to: "groups")
        let refused = try SeedgenTool.run(["build", "--model", model, "--output", output, groups])
        #expect(refused.status == 1 && refused.error.contains("groups.txt: unknown file type (.txt): name its format with --format xml, plist, json, jsonl, csv, tsv"), "\(refused)")
        let noExtension = try SeedgenTool.run(["build", "--model", model, "--output", output, bare])
        #expect(noExtension.status == 1 && noExtension.error.contains("unknown file type (no extension)"), "\(noExtension)")
        #expect(!FileManager.default.fileExists(atPath: output))
        let named = try SeedgenTool.run(["build", "--model", model, "--output", output, "--quiet", "--format", "csv", "--entity", "Group", groups])
        #expect(named.status == 0, "\(named)")
        #expect(try SQLiteShell.rows(output, "SELECT ZNAME FROM ZGROUP ORDER BY ZNAME") == ["A", "B"])
        let xml = try directory.write("<Cup><Group name=\"C\"/></Cup>", to: "cup.txt")
        let json = try directory.write(#" {"Groups": [{"name": "D"}]}"#, to: "cup.data")
        #expect(try SeedgenTool.run(["build", "--model", model, "--output", output, "--quiet", xml, json]).status == 0)
        #expect(try SQLiteShell.rows(output, "SELECT ZNAME FROM ZGROUP ORDER BY ZNAME") == ["C", "D"])
        #expect(try SeedgenTool.run(["build", "--model", model, "--output", output, "--format", "yaml", groups]).status == 2)
    }

    @Test("data as exporters write it: --delimiter for CSV, TSV, JSON Lines and a JSON array of the entity --entity names; a delimiter that cannot be, or has no CSV input, is a usage error")
    func exportersFormats() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try directory.write(CupModel.contents, to: "Cup.xcdatamodel/contents")
        let model = directory.path("Cup.xcdatamodel"), output = directory.path("out.sqlite")
        let semicolons = try directory.write("name;@nil\n\"A;1\";\n", to: "Groups.csv")
        let tabs = try directory.write("name\tfounded\tgroup\nPolen\t1919-12-20\tA;1\n", to: "Teams.tsv")
        let lines = try directory.write("{\"name\": \"B\"}\n{\"name\": \"C\"}\n", to: "more.jsonl")
        let array = try directory.write(#"[{"name": "D"}]"#, to: "export.json")
        let built = try SeedgenTool.run(["build", "--model", model, "--output", output, "--quiet", "--delimiter", ";", semicolons, tabs])
        #expect(built.status == 0, "\(built)")
        #expect(try SQLiteShell.rows(output, "SELECT g.ZNAME, t.ZNAME FROM ZTEAM t JOIN ZGROUP g ON g.Z_PK = t.ZGROUP") == ["A;1|Polen"])
        let named = try SeedgenTool.run(["build", "--model", model, "--output", output, "--quiet", "--entity", "Group", lines, array])
        #expect(named.status == 0, "\(named)")
        #expect(try SQLiteShell.rows(output, "SELECT ZNAME FROM ZGROUP ORDER BY ZNAME") == ["B", "C", "D"])
        for (arguments, message) in [(["--delimiter", "ab", semicolons], "--delimiter"), (["--delimiter", "\"", semicolons], "--delimiter"),
                                     (["--delimiter", ";", tabs], "--delimiter separates the fields of CSV files, and no input is a .csv file"),
                                     (["--entity", "Group", directory.path("Cup.xcdatamodel/contents")], "--entity names the entity of the objects in CSV, TSV, JSON Lines files and JSON arrays, and no input is one")] {
            let refused = try SeedgenTool.run(["build", "--model", model, "--output", directory.path("no.sqlite")] + arguments)
            #expect(refused.status == 2 && refused.error.contains(message), "\(refused)")
        }
        #expect(!FileManager.default.fileExists(atPath: directory.path("no.sqlite")))
    }

    @Test("a missing input file is named; exit 2 (a file that cannot be read)")
    func missingInput() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try directory.write(CupModel.contents, to: "Cup.xcdatamodel/contents")
        let result = try SeedgenTool.run(["build", "--model", directory.path("Cup.xcdatamodel"), "--output", directory.path("out.sqlite"), directory.path("nope.xml")])
        #expect(result.status == 2 && result.error.contains("nope.xml: no such readable file"), "\(result)")
        #expect(!FileManager.default.fileExists(atPath: directory.path("out.sqlite")))
    }
}
