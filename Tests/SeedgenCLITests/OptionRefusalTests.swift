import Foundation
import SeedgenTestSupport
import Testing

/// Command lines refused before any work: each of these once ran (or hung) with exit 0 or late.
@Suite("Options refused before any work")
struct OptionRefusalTests {
    static let model = """
        <?xml version="1.0"?>
        <model><entity name="Note"><attribute name="name" attributeType="String"/></entity></model>
        """

    @Test("a single-valued option given twice, an empty --output or --date-format, an absurd --framework-version: exit 2, nothing written",
          arguments: [
            (["build", "--output", "a.sqlite", "--output", "b.sqlite"], "--output is given twice"),
            (["build", "--output=a.sqlite", "--output", "b.sqlite"], "--output is given twice"),
            (["build", "--output", ""], "--output needs a file name"),
            (["build", "--output", "a.sqlite", "--date-format", ""], "--date-format needs a pattern"),
            (["build", "--output", "a.sqlite", "--framework-version", "99999999999"], "is no Core Data framework version"),
            (["build", "--output", "a.sqlite", "--date-format", "yyyy", "--date-format", "MM"], "--date-format is given twice"),
            (["dump", "a.sqlite", "-o", "x.xml", "--output", "y.xml"], "--output is given twice"),
            (["dump", "a.sqlite", "--output", ""], "--output needs a file name"),
          ])
    func refused(arguments: [String], message: String) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let model = try directory.write(Self.model, to: "Notes.xcdatamodel/contents")
        if arguments[0] == "dump" {
            #expect(try SeedgenTool.run(["build", "--model", model, "--output", directory.path("a.sqlite")]).status == 0)
        }
        let result = try SeedgenTool.run(arguments + ["--model", model], in: directory.url)
        #expect(result.status == 2 && result.error.contains(message), "\(result.status): \(result.error)")
        let expected: Set<String> = arguments[0] == "dump" ? ["Notes.xcdatamodel", "a.sqlite"] : ["Notes.xcdatamodel"]
        #expect(Set(try FileManager.default.contentsOfDirectory(atPath: directory.url.path)) == expected)
    }

    @Test("--model naming a FIFO fails at once with the reason, and dump --output refuses a device as build does")
    func specialFiles() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let fifo = directory.path("model-fifo")
        #expect(mkfifo(fifo, 0o600) == 0)
        let result = try SeedgenTool.run(["hash", "--model", fifo], timeout: 20)
        #expect(result.status == 1 && result.error.contains("not a regular file"), "\(result.status): \(result.error)")
        let model = try directory.write(Self.model, to: "Notes.xcdatamodel/contents")
        let store = directory.path("a.sqlite")
        #expect(try SeedgenTool.run(["build", "--model", model, "--output", store]).status == 0)
        let dump = try SeedgenTool.run(["dump", store, "--model", model, "--output", "/dev/null"])
        #expect(dump.status == 2 && dump.error.contains("not a regular file"), "\(dump.status): \(dump.error)")
    }
}
