import Foundation
import SeedgenTestSupport
import Testing

/// The build-tool plugin: an app package (Tests/PluginExample) gets its seed built by
/// `swift build` as a resource, rebuilt when its data changes and only then.
@Suite("SeedgenPlugin")
struct SeedgenPluginTests {
    /// A copy of the example package beside its build folder (both under `.build-plugin-example`,
    /// kept between runs so that seedgen itself is built once), depending on this package.
    static func prepareExample() throws -> (package: URL, scratch: URL) {
        let root = Corpus.packageRoot
        let work = root.appendingPathComponent(".build-plugin-example")
        let package = work.appendingPathComponent("PluginExample")
        // The copy's Package.resolved stays: without it the dependencies are checked out again
        // and everything is rebuilt.
        try FileManager.default.createDirectory(at: package, withIntermediateDirectories: true)
        for name in ["Package.swift", "Sources"] {
            try? FileManager.default.removeItem(at: package.appendingPathComponent(name))
            try FileManager.default.copyItem(at: root.appendingPathComponent("Tests/PluginExample/\(name)"), to: package.appendingPathComponent(name))
        }
        let manifest = package.appendingPathComponent("Package.swift")
        let text = try String(contentsOf: manifest, encoding: .utf8)
            .replacingOccurrences(of: #"path: "../..""#, with: "path: \"\(root.path)\"")
        try text.write(to: manifest, atomically: true, encoding: .utf8)
        return (package, work.appendingPathComponent("build"))
    }

    /// `swift build` of the example: the path of the seed its app finds in its bundle, and
    /// whether the build ran seedgen.
    static func build(_ package: URL, scratch: URL) throws -> (seed: String, ranSeedgen: Bool, log: String) {
        let swift = URL(fileURLWithPath: "/usr/bin/env")
        let build = try SeedgenTool.run(program: swift, ["swift", "build", "--package-path", package.path, "--scratch-path", scratch.path],
                                        timeout: 900)
        #expect(build.status == 0, "\(build.output.suffix(2000))\(build.error.suffix(2000))")
        let app = try SeedgenTool.run(program: scratch.appendingPathComponent("debug/ShelfApp"), [])
        #expect(app.status == 0, "\(app.error)")
        return (app.output.trimmingCharacters(in: .whitespacesAndNewlines), build.output.contains("seedgen: building the seed Shelf.sqlite"),
                String(build.output.suffix(1500)))
    }

    @Test("swift build turns Seeds/Shelf into the resource Shelf.sqlite, a store verify passes, rebuilt when the data changes",
          .timeLimit(.minutes(15)))
    func exampleBuildsItsSeed() throws {
        let (package, scratch) = try Self.prepareExample()
        // Resolved first: a Package.resolved that the first build writes makes SwiftPM rebuild
        // everything (seedgen included, so the seed too) on the build after it.
        let resolve = try SeedgenTool.run(program: URL(fileURLWithPath: "/usr/bin/env"),
                                          ["swift", "package", "--package-path", package.path, "--scratch-path", scratch.path, "resolve"], timeout: 300)
        #expect(resolve.status == 0, "\(resolve.error)")
        let (seed, ran, _) = try Self.build(package, scratch: scratch)
        #expect(ran)
        #expect(seed.hasSuffix("/PluginExample_ShelfApp.resources/Shelf.sqlite"), "\(seed)")
        let folder = package.appendingPathComponent("Sources/ShelfApp/Seeds/Shelf")
        let model = folder.appendingPathComponent("Shelf.xcdatamodeld").path
        let verify = try SeedgenTool.run(["verify", seed, "--model", model])
        #expect(verify.status == 0, "\(verify.output)")
        #expect(try SQLiteShell.rows(seed, "SELECT b.ZTITLE, a.ZNAME FROM ZBOOK b JOIN ZAUTHOR a ON a.Z_PK = b.ZAUTHOR ORDER BY b.ZISBN")
                == ["The Way of Kings|Brandon Sanderson", "A Wizard of Earthsea|Ursula K. Le Guin"])

        // Nothing changed: seedgen does not run again. (The first build after a cold start in a
        // new scratch folder can rebuild everything once, seedgen with it: SwiftPM's doing, seen
        // in CI's fresh clone, as after any change to the environment. One build settles it.)
        _ = try Self.build(package, scratch: scratch)
        let again = try Self.build(package, scratch: scratch)
        #expect(again.seed == seed && !again.ranSeedgen, "\(again.log)")

        // The data changed: the seed is built again.
        let authors = folder.appendingPathComponent("Authors.csv")
        try (String(contentsOf: authors, encoding: .utf8) + "Robin Hobb,,true\n").write(to: authors, atomically: true, encoding: .utf8)
        let changed = try Self.build(package, scratch: scratch)
        #expect(changed.seed == seed && changed.ranSeedgen)
        #expect(try SQLiteShell.rows(seed, "SELECT count(*) FROM ZAUTHOR") == ["3"])
    }
}
