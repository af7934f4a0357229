import Foundation
import SeedgenTestSupport
import Testing

@Suite("seedgen dump")
struct DumpTests {
    /// build -> dump -> build; returns both sha256 values and the dump's text.
    static func roundTrip(model: String, inputs: [String], in directory: TemporaryDirectory) throws -> (String, String, String) {
        struct Summary: Decodable { var sha256: String }
        let first = try SeedgenTool.run(["build", "--model", model, "--output", directory.path("first.sqlite"), "--json"] + inputs)
        #expect(first.status == 0, "\(first.error)")
        let dump = try SeedgenTool.run(["dump", directory.path("first.sqlite"), "--model", model, "--output", directory.path("dump.xml")])
        #expect(dump.status == 0, "\(dump.error)")
        let second = try SeedgenTool.run(["build", "--model", model, "--output", directory.path("second.sqlite"), "--json", directory.path("dump.xml")])
        #expect(second.status == 0, "\(second.error)")
        let decoder = JSONDecoder()
        return (try decoder.decode(Summary.self, from: Data(first.output.utf8)).sha256,
                try decoder.decode(Summary.self, from: Data(second.output.utf8)).sha256,
                try String(contentsOfFile: directory.path("dump.xml"), encoding: .utf8))
    }

    @Test("the EM-Plan seed rebuilt from its dump is byte-identical")
    func emPlan() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let folder = Corpus.packageRoot.appendingPathComponent("Seeds/EMPlan")
        let (first, second, dump) = try Self.roundTrip(
            model: folder.appendingPathComponent("EMPlan.xcdatamodeld").path,
            inputs: [folder.appendingPathComponent("setup.plist").path], in: directory)
        #expect(first == second)
        #expect(dump.contains("<Team name=\"Deutschland\" group=\"B\"/>"))
        #expect(dump.contains("homePlaceholder=\"Sieger Halbfinale 1\""))
    }

    @Test("every attribute type survives the round trip exactly, text with quotes and line breaks too")
    func types() throws {
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
        let (first, second, dump) = try Self.roundTrip(model: model, inputs: [input], in: directory)
        #expect(first == second, "\(dump)")
        #expect(dump.contains("value=\"0.30000000000000004\""))
        #expect(dump.contains("&#10;second line&#9;tab"))
    }

    @Test("what a dump cannot express is an error naming the relationship; exit 1, no file")
    func unsupported() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let model = try directory.write(CupModel.contents, to: "Cup.xcdatamodel/contents")
        let build = try SeedgenTool.run(["build", "--model", model, "--output", directory.path("cup.sqlite")])
        #expect(build.status == 0)
        let dump = try SeedgenTool.run(["dump", directory.path("cup.sqlite"), "--model", model, "--output", directory.path("dump.xml")])
        #expect(dump.status == 1 && dump.error.contains("Stadium.hosts is many-to-many"), "\(dump.error)")
        #expect(!FileManager.default.fileExists(atPath: directory.path("dump.xml")))
        #expect(try SeedgenTool.run(["dump", directory.path("missing.sqlite"), "--model", model]).status == 2)
        #expect(try SeedgenTool.run(["dump", directory.path("cup.sqlite"), "--model", model, "--format", "json"]).status == 2)
    }
}
