import Foundation
import SeedgenTestSupport
import Testing

/// `fetch` on values the hostile round found compared or printed wrong with exit 0.
@Suite("fetch: text with NUL, dates far away, dates against strings")
struct StoredTextCommandTests {
    static let model = """
        <?xml version="1.0"?>
        <model>
            <entity name="Note">
                <attribute name="name" attributeType="String"/>
                <attribute name="text" optional="YES" attributeType="String"/>
                <attribute name="when" optional="YES" attributeType="Date"/>
            </entity>
        </model>
        """

    /// A store of three notes: one whose text holds a NUL, one far in the future, one with an escape sequence.
    static func store(in directory: TemporaryDirectory) throws -> (model: String, store: String) {
        let model = try directory.write(Self.model, to: "Notes.xcdatamodel/contents")
        let json = try directory.write(#"""
            {"Notes": [{"name": "nul", "text": "a\u0000b", "when": "@0"},
                       {"name": "far", "text": "a", "when": "@1e300"},
                       {"name": "escape", "text": "\u001b[2Jcleared\nsecond line", "when": "@-1e17"}]}
            """#, to: "Notes.json")
        let store = directory.path("Notes.sqlite")
        let built = try SeedgenTool.run(["build", "--model", model, "--output", store, "--quiet", json])
        #expect(built.status == 0, "\(built.error)")
        return (model, store)
    }

    static func names(_ result: SeedgenTool.Result) -> [String] {
        result.output.split(separator: "\n").compactMap { line in
            line.range(of: #"name="[a-z]+""#, options: .regularExpression).map { String(line[$0].dropFirst(6).dropLast()) }
        }.sorted()
    }

    @Test("a NUL inside stored text is compared with every byte, folded or not")
    func nulComparedWhole() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let (model, store) = try Self.store(in: directory)
        for (predicate, expected) in [(#"text == "a""#, ["far"]), (#"text == "a\u0000b""#, ["nul"]), (#"text ENDSWITH[c] "B""#, ["nul"]),
                                      (#"text BEGINSWITH[c] "A""#, ["far", "nul"]), (#"text CONTAINS[cd] "\u0000""#, ["nul"])] {
            let result = try SeedgenTool.run(["fetch", store, "--model", model, "--entity", "Note", "--predicate", predicate])
            #expect(result.status == 0, "\(predicate): \(result.error)")
            #expect(Self.names(result) == expected, "\(predicate): \(result.output)")
        }
    }

    @Test("text and dates print as stored: escapes for control characters, @seconds beyond the calendar")
    func printedAsStored() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let (model, store) = try Self.store(in: directory)
        let result = try SeedgenTool.run(["fetch", store, "--model", model, "--entity", "Note"])
        #expect(result.status == 0, "\(result.error)")
        #expect(result.output.contains(#"text="a\u{0}b""#), "\(result.output)")
        #expect(result.output.contains(#"text="\u{1b}[2Jcleared\nsecond line""#) && !result.output.contains("\u{1b}"), "\(result.output)")
        #expect(result.output.contains(#"when="@1e+300""#) && result.output.contains(#"when="@-1e+17""#), "\(result.output)")
        #expect(result.output.split(separator: "\n").count == 4, "three objects and the count, one line each: \(result.output)")
    }

    @Test("a Date compared with a string that is no date is an error at its place, not every row")
    func dateAgainstString() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let (model, store) = try Self.store(in: directory)
        let refused = try SeedgenTool.run(["fetch", store, "--model", model, "--entity", "Note", "--predicate", #"when < "1966-01-01""#])
        #expect(refused.status == 1 && refused.error.contains("character 1") && refused.error.contains("is not a date"), "\(refused.status) \(refused.error)")
        let seconds = try SeedgenTool.run(["fetch", store, "--model", model, "--entity", "Note", "--predicate", #"when < "1""#])
        #expect(seconds.status == 0 && Self.names(seconds) == ["escape", "nul"], "\(seconds.output) \(seconds.error)")
    }
}
