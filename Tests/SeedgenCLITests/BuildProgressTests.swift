import Foundation
import SeedgenTestSupport
import Testing

/// `seedgen build`'s progress on a terminal (a pseudo-terminal made by script(1)): which file of
/// how many, the percent of all bytes, rows per second, the time left, the finishing phases and
/// the exact row count at the end; an error starts a line of its own.
@Suite("build progress")
struct BuildProgressTests {
    static let script = "/usr/bin/script"

    /// What `seedgen arguments` writes to the terminal, carriage returns as line ends.
    static func onTerminal(_ arguments: [String]) throws -> String {
        let seedgen = try #require(SeedgenTool.program(named: "seedgen")).path
        let command = ([seedgen] + arguments).map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(separator: " ")
        let result = try SeedgenTool.run(program: URL(fileURLWithPath: script), ["-qec", command, "/dev/null"], timeout: 120)
        return result.output.replacingOccurrences(of: "\r", with: "\n")
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: script), "needs script(1) for a terminal"))
    func progressOnATerminal() throws {
        let directory = try DiffCommandTests.setUp()
        defer { directory.remove() }
        let model = directory.path("Shelf.xcdatamodel")
        let first = try directory.write(#"{"Authors": [{"name": "Ann"}, {"name": "Bob"}]}"#, to: "authors.json")
        let second = try directory.write(DiffCommandTests.v1, to: "books.json")
        let shown = try Self.onTerminal(["build", "--model", model, "--output", directory.path("out.sqlite"), "--key", "Book=isbn", first, second])
        for expected in ["authors.json (1 of 2): ", "books.json (2 of 2): 100% of ", " rows/s, about ", " left",
                         "rows read; resolving references, defaults and required values; copy and indexes", "rows read; content digest, seal and sync",
                         "\n7 rows in "] {
            #expect(shown.contains(expected), "\(expected) in:\n\(shown)")
        }
        let failed = try Self.onTerminal(["build", "--model", model, "--output", directory.path("out.sqlite"), first,
                                          try directory.write(#"{"Authors": [{"name": 1}]}"#, to: "bad.json")])
        #expect(failed.contains("\nseedgen: error: "), "\(failed)")
    }
}
