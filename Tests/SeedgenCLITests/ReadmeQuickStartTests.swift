import Foundation
import SeedgenTestSupport
import Testing

/// The README's quick starts, run as a newcomer would paste them: each shell block in a fresh
/// folder, with the built `seedgen` first on the PATH.
@Suite("README quick starts")
struct ReadmeQuickStartTests {
    /// The shell block under the README heading `heading`.
    static func block(under heading: String) throws -> String {
        let readme = try String(contentsOf: Corpus.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let section = try #require(readme.range(of: "\n## \(heading)\n"), "no section '\(heading)' in the README")
        let start = try #require(readme.range(of: "```sh\n", range: section.upperBound..<readme.endIndex))
        let end = try #require(readme.range(of: "\n```", range: start.upperBound..<readme.endIndex))
        return String(readme[start.upperBound..<end.lowerBound])
    }

    @Test("each quick start runs as shown and leaves a store that verifies clean", arguments: [
        ("Quick start: a Core Data model", "Shop.sqlite", ["verify", "Shop.sqlite", "--model", "Shop.xcdatamodel"]),
        ("Quick start: SwiftData sources", "Recipes.sqlite", ["verify", "Recipes.sqlite", "--model", "Recipe.swift", "--schema", "Recipe"]),
    ])
    func quickStart(_ heading: String, _ store: String, _ verify: [String]) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let seedgen = try #require(SeedgenTool.executable)
        let path = seedgen.deletingLastPathComponent().path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        let script = try directory.write("export PATH='\(path)'\n" + (try Self.block(under: heading)) + "\n", to: "quickstart.sh")
        let run = try SeedgenTool.run(program: URL(fileURLWithPath: "/bin/bash"), ["-eu", script], in: directory.url)
        #expect(run.status == 0, "\(run.output)\(run.error)")
        #expect(FileManager.default.fileExists(atPath: directory.path(store)))
        let check = try SeedgenTool.run(verify, in: directory.url)
        #expect(check.status == 0 && check.output.contains("clean"), "\(check.output)\(check.error)")
    }
}
