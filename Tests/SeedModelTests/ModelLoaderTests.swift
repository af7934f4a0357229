import Foundation
import SeedModel
import SeedModelLoader
import SeedgenTestSupport
import Testing

@Suite("Model loader")
struct ModelLoaderTests {
    @Test("reads every part of a model: entities, properties, inheritance, templates")
    func readsEverything() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let model = try ModelLoader.load(from: try directory.write(ModelFixtures.league, to: "contents"))
        #expect(model.versionIdentifier == "7")
        #expect(model.entities.map(\.name) == ["Coach", "Human", "Player", "Team"])

        let human = try #require(model.entity(named: "Human"))
        #expect(human.isAbstract && human.renamingIdentifier == "Person")
        #expect(human.attributes.map(\.name) == ["givenname", "name"])
        #expect(human.attribute(named: "givenname")?.isOptional == true)
        #expect(human.attribute(named: "name")?.isOptional == false)
        #expect(model.subentities(of: human).map(\.name) == ["Coach", "Player"])

        let coach = try #require(model.entity(named: "Coach"))
        let since = try #require(coach.attribute(named: "since"))
        #expect(since.type == .date && since.defaultValue == "697386720" && since.userInfo == ["dateFormat": "yyyy"])
        #expect(model.root(of: coach).name == "Human")
        #expect(model.allAttributes(of: coach).map(\.name) == ["givenname", "name", "since"])

        let player = try #require(model.entity(named: "Player"))
        #expect(player.attribute(named: "number")?.isIndexed == true)
        #expect(player.attribute(named: "number")?.type == .integer16)

        let team = try #require(model.entity(named: "Team"))
        #expect(team.versionHashModifier == "2" && team.userInfo == ["owner": "uefa"])
        #expect(team.uniquenessConstraints == [["name"]])
        #expect(team.fetchIndexes.first?.elements.first?.isAscending == false)
        #expect(team.fetchedProperties.first?.predicate == "team == $FETCH_SOURCE")
        let members = try #require(team.relationship(named: "members"))
        #expect(members.isToMany && members.isOrdered && members.deletionRule == .cascade && members.maxCount == 0)
        #expect(model.inverse(of: members)?.name == "team")
        let rivals = try #require(team.relationship(named: "rivals"))
        #expect(rivals.minCount == 1 && rivals.maxCount == 5)
        let teamOfHuman = try #require(human.relationship(named: "team"))
        #expect(!teamOfHuman.isToMany && teamOfHuman.maxCount == 1)

        let check = try #require(model.fetchRequest(named: "initialisationCheck"))
        #expect(check.entity == "Team" && check.predicate == "name == \"Deutschland\"")
        #expect(check.fetchLimit == 1 && check.includesSubentities == true)
        #expect(model.fetchRequest(named: "all")?.predicate == nil)
        #expect(model.fetchRequest(named: "all")?.includesSubentities == nil)
    }

    @Test("an .xcdatamodeld uses the version .xccurrentversion names")
    func honoursCurrentVersion() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try directory.write(ModelFixtures.model(#"<entity name="Old"/>"#), to: "M.xcdatamodeld/M.xcdatamodel/contents")
        try directory.write(ModelFixtures.model(#"<entity name="New"/>"#), to: "M.xcdatamodeld/M 2.xcdatamodel/contents")
        try directory.write("""
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict><key>_XCCurrentVersionName</key><string>M 2.xcdatamodel</string></dict></plist>
            """, to: "M.xcdatamodeld/.xccurrentversion")
        let model = try ModelLoader.load(from: directory.path("M.xcdatamodeld"))
        #expect(model.entities.map(\.name) == ["New"])
        #expect(model.source.hasSuffix("M 2.xcdatamodel/contents"))

        // An .xcdatamodel folder works too.
        #expect(try ModelLoader.load(from: directory.path("M.xcdatamodeld/M.xcdatamodel")).entities.map(\.name) == ["Old"])

        // A current version outside the bundle is never read.
        try directory.write(ModelFixtures.model(#"<entity name="Elsewhere"/>"#), to: "other.xcdatamodel/contents")
        for escape in ["../other.xcdatamodel", "M 2.xcdatamodel/../../other.xcdatamodel", ".."] {
            try directory.write("""
                <?xml version="1.0" encoding="UTF-8"?>
                <plist version="1.0"><dict><key>_XCCurrentVersionName</key><string>\(escape)</string></dict></plist>
                """, to: "M.xcdatamodeld/.xccurrentversion")
            let error = try #require(throws: ModelError.self) { try ModelLoader.load(from: directory.path("M.xcdatamodeld")) }
            #expect(error.message.contains("is not a model version inside the bundle"), "\(error)")
        }

        // Two versions and no marker: which one is meant is unknown.
        try FileManager.default.removeItem(atPath: directory.path("M.xcdatamodeld/.xccurrentversion"))
        #expect(throws: ModelError.self) { try ModelLoader.load(from: directory.path("M.xcdatamodeld")) }
    }

    @Test("a single-version .xcdatamodeld needs no .xccurrentversion")
    func singleVersion() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try directory.write(ModelFixtures.model(#"<entity name="Only"/>"#), to: "M.xcdatamodeld/M.xcdatamodel/contents")
        #expect(try ModelLoader.load(from: directory.path("M.xcdatamodeld")).entities.map(\.name) == ["Only"])
    }

    /// A broken model, the line the error must name and words the message must contain.
    struct BrokenModel: Sendable, CustomStringConvertible {
        var description: String
        var body: String
        var line: Int?
        var words: [String]
    }

    // Line 1 is the XML declaration, line 2 <model>, so the body starts on line 3.
    static let broken: [BrokenModel] = [
        .init(description: "unknown attribute type", body: #"<entity name="A"><attribute name="x" attributeType="Integer 128"/></entity>"#,
              line: 3, words: ["unknown attribute type", "Integer 128"]),
        .init(description: "unknown destination", body: #"<entity name="A"><relationship name="b" maxCount="1" destinationEntity="B"/></entity>"#,
              line: 3, words: ["unknown destination entity", "'B'"]),
        .init(description: "unknown parent", body: "<entity name=\"A\"/>\n<entity name=\"C\" parentEntity=\"Nope\"/>",
              line: 4, words: ["unknown parent entity", "Nope"]),
        .init(description: "cyclic inheritance", body: "<entity name=\"A\" parentEntity=\"B\"/>\n<entity name=\"B\" parentEntity=\"A\"/>",
              line: 3, words: ["cyclic inheritance"]),
        .init(description: "duplicate entity", body: "<entity name=\"A\"/>\n<entity name=\"A\"/>",
              line: 4, words: ["duplicate entity name 'A'"]),
        .init(description: "duplicate property", body: "<entity name=\"A\">\n<attribute name=\"x\" attributeType=\"String\"/>\n<attribute name=\"x\" attributeType=\"Date\"/>\n</entity>",
              line: 5, words: ["two properties named 'x'"]),
        .init(description: "redeclared inherited property", body: "<entity name=\"A\"><attribute name=\"x\" attributeType=\"String\"/></entity>\n<entity name=\"B\" parentEntity=\"A\">\n<attribute name=\"x\" attributeType=\"String\"/></entity>",
              line: 5, words: ["redeclares an inherited property 'x'"]),
        .init(description: "inverse that does not point back", body: """
            <entity name="A"><relationship name="bs" toMany="YES" destinationEntity="B" inverseName="a" inverseEntity="B"/>
            <relationship name="other" maxCount="1" destinationEntity="B"/></entity>
            <entity name="B"><relationship name="a" maxCount="1" destinationEntity="A" inverseName="other" inverseEntity="A"/></entity>
            """, line: 3, words: ["relationship 'A.bs'", "whose inverse is 'A.other'"]),
        .init(description: "inverse missing on the destination", body: #"<entity name="A"><relationship name="b" maxCount="1" destinationEntity="B" inverseName="zz" inverseEntity="B"/></entity><entity name="B"/>"#,
              line: 3, words: ["inverse 'zz'", "does not have"]),
        .init(description: "constraint on an unknown property", body: #"<entity name="A"><uniquenessConstraints><uniquenessConstraint><constraint value="code"/></uniquenessConstraint></uniquenessConstraints></entity>"#,
              line: 3, words: ["unknown property 'code'"]),
        .init(description: "template on an unknown entity", body: "<entity name=\"A\"/>\n<fetchRequest name=\"t\" entity=\"Z\"/>",
              line: 4, words: ["template 't'", "unknown entity 'Z'"]),
        .init(description: "bad boolean", body: #"<entity name="A" isAbstract="maybe"/>"#, line: 3, words: ["'maybe'", "not YES or NO"]),
        .init(description: "bad count", body: #"<entity name="A"><relationship name="a" maxCount="one" destinationEntity="A"/></entity>"#,
              line: 3, words: ["maxCount", "'one'"]),
        .init(description: "entity without a name", body: #"<entity/>"#, line: 3, words: ["<entity> has no 'name'"]),
        .init(description: "attribute name carrying SQL",
              body: "<entity name=\"A\">\n<attribute name=\"a VARCHAR); ATTACH 'X.DB' AS Q; --\" attributeType=\"String\"/>\n</entity>",
              line: 4, words: ["attribute name 'a VARCHAR); ATTACH", "of entity 'A' is not valid"]),
        .init(description: "entity name with a quote", body: "<entity name=\"A&quot;B\"/>", line: 3, words: ["entity name 'A\"B' is not valid"]),
        // A leading underscore is a name Core Data (and SwiftData) accepts; `_pk` would be Z_PK.
        .init(description: "relationship name that would be a bookkeeping column",
              body: #"<entity name="A"><relationship name="_pk" maxCount="1" destinationEntity="A"/></entity>"#,
              line: 3, words: ["relationship name '_pk' of entity 'A' would be the column 'Z_PK'"]),
        .init(description: "attribute name starting with a digit",
              body: #"<entity name="A"><attribute name="1st" attributeType="String"/></entity>"#,
              line: 3, words: ["attribute name '1st' of entity 'A' is not valid"]),
        .init(description: "fetch index name with a blank",
              body: "<entity name=\"A\"><attribute name=\"x\" attributeType=\"String\"/>\n<fetchIndex name=\"by x\"><fetchIndexElement property=\"x\" type=\"Binary\" order=\"ascending\"/></fetchIndex></entity>",
              line: 4, words: ["fetch index name 'by x' of entity 'A' is not valid"]),
        .init(description: "non-ASCII name", body: #"<entity name="Équipe"/>"#, line: 3, words: ["entity name 'Équipe' is not valid"]),
        .init(description: "entity names differing in case", body: "<entity name=\"Foo\"/>\n<entity name=\"FOO\"/>",
              line: 4, words: ["'Foo' and 'FOO' differ only in case", "'ZFOO'"]),
        .init(description: "property names differing in case",
              body: "<entity name=\"A\">\n<attribute name=\"name\" attributeType=\"String\"/>\n<relationship name=\"Name\" maxCount=\"1\" destinationEntity=\"A\"/>\n</entity>",
              line: 5, words: ["'name' and 'Name'", "column 'ZNAME'"]),
        .init(description: "inherited property name differing in case",
              body: "<entity name=\"A\"><attribute name=\"code\" attributeType=\"String\"/></entity>\n<entity name=\"B\" parentEntity=\"A\">\n<attribute name=\"CODE\" attributeType=\"String\"/></entity>",
              line: 5, words: ["entity 'B' has properties 'code' and 'CODE'"]),
        .init(description: "fetch index names differing in case",
              body: "<entity name=\"A\"><attribute name=\"x\" attributeType=\"String\"/>\n<fetchIndex name=\"byX\"><fetchIndexElement property=\"x\" type=\"Binary\" order=\"ascending\"/></fetchIndex>\n<fetchIndex name=\"BYX\"><fetchIndexElement property=\"x\" type=\"Binary\" order=\"ascending\"/></fetchIndex></entity>",
              line: 5, words: ["two fetch indexes named 'byX' and 'BYX'"]),
        .init(description: "Composite attribute", body: "<entity name=\"A\">\n<attribute name=\"c\" optional=\"YES\" attributeType=\"Composite\" composite=\"C\"/></entity>",
              line: 4, words: ["attribute 'c' is a Composite attribute", "refuses it rather than guess"]),
        .init(description: "derived attribute",
              body: "<entity name=\"A\"><attribute name=\"n\" attributeType=\"Integer 64\"/>\n<attribute name=\"count\" optional=\"YES\" attributeType=\"Integer 64\" derived=\"YES\" derivationExpression=\"n.@count\"/></entity>",
              line: 4, words: ["attribute 'count' is derived", "version hash"]),
        .init(description: "compound index on an unknown property",
              body: "<entity name=\"A\"><attribute name=\"n\" attributeType=\"String\"/><compoundIndexes>\n<compoundIndex><index value=\"n\"/><index value=\"zz\"/></compoundIndex></compoundIndexes></entity>",
              line: 4, words: ["compound index of entity 'A' names unknown property 'zz'"]),
        .init(description: "malformed XML", body: "<entity name=\"A\">\n<attribute name=\"x\" attributeType=\"String\">\n</entity>",
              line: 5, words: ["malformed XML"]),
    ]

    @Test("a malformed model is an error naming the file and line", arguments: broken)
    func rejects(_ broken: BrokenModel) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = try directory.write(ModelFixtures.model(broken.body), to: "contents")
        let error = try #require(throws: ModelError.self) { try ModelLoader.load(from: path) }
        #expect(error.file == path)
        #expect(error.line == broken.line, "\(error)")
        for word in broken.words {
            #expect(error.message.contains(word), "\(error.message)")
        }
        #expect(error.description.hasPrefix("\(path):\(broken.line ?? 0): "))
    }

    @Test("a transient attribute without attributeType (Xcode's \"Undefined\") loads; a stored one without it is an error")
    func transientWithoutType() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = try directory.write(ModelFixtures.model("""
            <entity name="Asset"><attribute name="assetId" optional="YES" transient="YES" syncable="YES"/>
            <attribute name="name" attributeType="String"/></entity>
            """), to: "ok/contents")
        let model = try ModelLoader.load(from: path)
        let attribute = try #require(model.entity(named: "Asset")?.attribute(named: "assetId"))
        #expect(attribute.type == .undefined && attribute.isTransient)
        let stored = try directory.write(ModelFixtures.model(#"<entity name="Asset"><attribute name="assetId" optional="YES"/></entity>"#), to: "bad/contents")
        let error = try #require(throws: ModelError.self) { try ModelLoader.load(from: stored) }
        #expect(error.message.contains("has no 'attributeType'") && error.line == 3, "\(error)")
    }

    @Test("not a model: wrong root, binary plist, compiled model, missing file")
    func rejectsNonModels() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let wrongRoot = try directory.write("<?xml version=\"1.0\"?>\n<plist/>", to: "a/contents")
        #expect(try #require(throws: ModelError.self) { try ModelLoader.load(from: wrongRoot) }.message.contains("not <model>"))
        let binary = try directory.write("bplist00\u{0}\u{1}", to: "b/contents")
        #expect(try #require(throws: ModelError.self) { try ModelLoader.load(from: binary) }.message.contains("binary property list"))
        try FileManager.default.createDirectory(atPath: directory.path("C.momd"), withIntermediateDirectories: true)
        #expect(try #require(throws: ModelError.self) { try ModelLoader.load(from: directory.path("C.momd")) }.message.contains("compiled model"))
        try directory.write("bplist00", to: "Old.xcdatamodel/elements")
        #expect(try #require(throws: ModelError.self) { try ModelLoader.load(from: directory.path("Old.xcdatamodel")) }.message.contains("Xcode 3"))
        #expect(try #require(throws: ModelError.self) { try ModelLoader.load(from: directory.path("missing")) }.message.contains("no such model"))
    }

    @Test("an external entity in a model file is never resolved")
    func noExternalEntities() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let secret = try directory.write("TOP-SECRET", to: "secret.txt")
        let path = try directory.write("""
            <?xml version="1.0"?>
            <!DOCTYPE model [<!ENTITY leak SYSTEM "file://\(secret)">]>
            <model><entity name="A" versionHashModifier="&leak;"/></model>
            """, to: "contents")
        let model = try? ModelLoader.load(from: path)
        #expect(model?.entities.first?.versionHashModifier?.contains("TOP-SECRET") != true)
    }
}
