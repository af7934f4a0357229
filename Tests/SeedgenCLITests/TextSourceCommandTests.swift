import Foundation
import SeedgenTestSupport
import Testing

/// `seedgen build` on JSON and CSV: the EM-Plan seed's teams and players, errors at their place
/// with nothing replaced, `--entity`, and hostile files that stay within memory.
@Suite("JSON and CSV sources on the command line")
struct TextSourceCommandTests {
    static let model = HostileInputTests.model

    @Test("JSON and CSV build; a bad value is exit 1 at its line and column, and an older output stays")
    func buildAndRefuse() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let json = try directory.write(#"{"Groups": [{"name": "A"}], "Teams": {"Polen": {"group": "A"}}}"#, to: "teams.json")
        let csv = try directory.write("givenname,name,number,team\nWojciech,\"Szczęsny, W.\",1,Polen\n", to: "squad.csv")
        let output = directory.path("out.sqlite")
        let good = try SeedgenTool.run(["build", "--model", Self.model, "--output", output, "--quiet", "--entity", "Player", json, csv])
        #expect(good.status == 0, "\(good.error)")
        #expect(try SQLiteShell.rows(output, "SELECT h.ZNAME, t.ZNAME FROM ZHUMAN h JOIN ZTEAM t ON t.Z_PK = h.ZTEAM1") == ["Szczęsny, W.|Polen"])
        let before = try Data(contentsOf: URL(fileURLWithPath: output))
        let bad = try directory.write("givenname,name,number,team\nJakub,B,sixteen,Polen\n", to: "more.csv")
        let refused = try SeedgenTool.run(["build", "--model", Self.model, "--output", output, "--entity", "Player", json, bad])
        #expect(refused.status == 1)
        #expect(refused.error.contains("more.csv:2:9: Player.number: 'sixteen'"), "\(refused.error)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: output)) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path).sorted() == ["more.csv", "out.sqlite", "squad.csv", "teams.json"])
    }

    @Test("--entity must name an entity, and applies to files of one entity's objects only (a JSON file's root tells): exit 2, nothing written")
    func entityOption() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let json = try directory.write("{}", to: "empty.json")
        let unknown = try SeedgenTool.run(["build", "--model", Self.model, "--output", directory.path("o.sqlite"), "--entity", "Shelf", json])
        #expect(unknown.status == 2 && unknown.error.contains("--entity Shelf: the model has no entity 'Shelf'"), "\(unknown.error)")
        let noCSV = try SeedgenTool.run(["build", "--model", Self.model, "--output", directory.path("o.sqlite"), "--entity", "Player", json])
        #expect(noCSV.status == 2 && noCSV.error.contains("--entity names the entity of the objects in CSV, TSV, JSON Lines files and JSON arrays, and no input is one"), "\(noCSV.error)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path).sorted() == ["empty.json"])
    }

    @Test("hostile text sources: deep JSON, a JSON string and a CSV field of 20 MB without an end, 200,000 items: no crash, memory bounded")
    func hostile() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let cases: [(String, String, String)] = [
            ("deep.json", "{\"Teams\": [" + String(repeating: "{\"x\": [", count: 50_000), "nests more than 512 levels deep"),
            ("open.json", "{\"Teams\": [{\"name\": \"" + String(repeating: "x", count: 20 << 20), "a string without its closing quote"),
            ("Teams.csv", "name\n\"" + String(repeating: "y", count: 20 << 20), "a quoted field without its closing quote"),
        ]
        try Self.expectRefused(cases, in: directory)
        // Many top-level items: memory does not grow with their number.
        let items = (0..<200_000).map { #"{"givenname": "G\#($0)", "name": "N\#($0)", "number": \#($0 % 99)}"# }.joined(separator: ",\n")
        let input = try directory.write("{\"Players\": [\n" + items + "\n]}", to: "players.json")
        let (result, _) = try HostileInputTests.build(input, in: directory)
        #expect(result.status == 0, "\(result.error.prefix(300))")
    }

    @Test("limits as read: a CSV row's fields past the header's at the first one too many, a JSON string past 256 MiB, a JSON number of 2,000 digits; messages quote a short prefix")
    func limitsAsRead() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let cases: [(String, String, String)] = [
            ("Teams.csv", "name,@id\nPolen,x," + String(repeating: ",", count: 2_000_000) + "\n", "Teams.csv:2:9: a row of more than 2 field(s); the header has 2"),
            ("Teams.csv", String(repeating: "x,", count: 20_000) + "\n", "Teams.csv:1:20001: a row of more than 10000 field(s)"),
            ("long.json", "{\"Teams\": [{\"name\": \"" + String(repeating: "x", count: (256 << 20) + 1) + "\"}]}", "long.json:1:21: a string longer than 256 MiB"),
            ("number.json", "{\"Teams\": [{\"name\": " + String(repeating: "7", count: 2_000) + "}]}", "number.json:1:21: a number of more than 1,024 characters"),
        ]
        try Self.expectRefused(cases, in: directory)
    }

    /// Each input (file name, text) is refused with exit 1 and its message, in a short error,
    /// leaving nothing behind and staying within memory.
    static func expectRefused(_ cases: [(String, String, String)], in directory: TemporaryDirectory) throws {
        for (name, text, message) in cases {
            let input = try directory.write(text, to: name)
            let (result, left) = try HostileInputTests.build(input, in: directory)
            #expect(result.status == 1 && result.error.contains(message), "\(name): \(result.error.prefix(300))")
            #expect(result.error.count < 400)
            #expect(left == [name], "\(left)")
            try FileManager.default.removeItem(atPath: input)
        }
    }
}
