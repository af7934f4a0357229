import Foundation
import SeedgenTestSupport
import Testing

/// The build-tool plugin: an app package (Tests/PluginExample) gets its seed built by
/// `swift build` as a resource, rebuilt when its data changes and only then. Its cold build
/// compiles seedgen and the runtime once more for the example (2.5 minutes alone; 5 minutes of
/// `make test`'s wall time when it ran there, competing with every other test), so it runs on
/// `make plugin`.
@Suite("SeedgenPlugin", .enabled(if: ProcessInfo.processInfo.environment["SEEDGEN_PLUGIN"] != nil, "set SEEDGEN_PLUGIN=1 (make plugin)"))
struct SeedgenPluginTests {
    /// A copy of the example package `Tests/<name>` beside its build folder (both under
    /// `.build-plugin-example`, kept between runs so that seedgen itself is built once),
    /// depending on this package.
    static func prepareExample(_ name: String = "PluginExample") throws -> (package: URL, scratch: URL) {
        let root = Corpus.packageRoot
        let work = root.appendingPathComponent(".build-plugin-example")
        let package = work.appendingPathComponent(name)
        // The copy's Package.resolved stays: without it the dependencies are checked out again
        // and everything is rebuilt.
        try FileManager.default.createDirectory(at: package, withIntermediateDirectories: true)
        for name in ["Package.swift", "Sources"] {
            try? FileManager.default.removeItem(at: package.appendingPathComponent(name))
            try FileManager.default.copyItem(at: root.appendingPathComponent("Tests/\(package.lastPathComponent)/\(name)"), to: package.appendingPathComponent(name))
        }
        let manifest = package.appendingPathComponent("Package.swift")
        let text = try String(contentsOf: manifest, encoding: .utf8)
            .replacingOccurrences(of: #"path: "../..""#, with: "path: \"\(root.path)\"")
        try text.write(to: manifest, atomically: true, encoding: .utf8)
        return (package, work.appendingPathComponent(name == "PluginExample" ? "build" : "build-\(name)"))
    }

    /// `swift build` of the example, then its app run on the data directory `data`: the path of
    /// the seed the app finds in its bundle, what else it printed, whether the build ran seedgen,
    /// and the build's log.
    static func build(_ package: URL, scratch: URL, data: String) throws -> (seed: String, said: [String], ranSeedgen: Bool, log: String) {
        let swift = URL(fileURLWithPath: "/usr/bin/env")
        let build = try SeedgenTool.run(program: swift, ["swift", "build", "--package-path", package.path, "--scratch-path", scratch.path],
                                        timeout: 900)
        #expect(build.status == 0, "\(build.output.suffix(2000))\(build.error.suffix(2000))")
        let app = try SeedgenTool.run(program: scratch.appendingPathComponent("debug/ShelfApp"), [data])
        #expect(app.status == 0, "\(app.output)\(app.error)")
        let lines = app.output.split(separator: "\n").map(String.init)
        return (lines.first ?? "", Array(lines.dropFirst()), build.output.contains("seedgen: building the seed Shelf.sqlite"),
                build.output + build.error)
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
        let data = try TemporaryDirectory()
        defer { data.remove() }
        let (seed, said, ran, log) = try Self.build(package, scratch: scratch, data: data.path("app"))
        #expect(ran)
        #expect(seed.hasSuffix("/PluginExample_ShelfApp.resources/Shelf.sqlite"), "\(seed)")
        // The app installed its seed and ran the model's initialisationCheck with the model the
        // seed carries; its error handling (the sample in SeedRuntime.md) compiled without a warning.
        #expect(said == ["install: installed", "initialisationCheck: initialised"], "\(said)")
        #expect(!log.split(separator: "\n").contains { $0.contains("ShelfApp/main.swift") && $0.contains("warning:") }, "\(log.suffix(3000))")
        let main = try String(contentsOf: Corpus.packageRoot.appendingPathComponent("Tests/PluginExample/Sources/ShelfApp/main.swift"), encoding: .utf8)
        let sample = try #require(main.components(separatedBy: "// README: handling install errors.\n").last?.components(separatedBy: "// README end.").first)
        let guide = try String(contentsOf: Corpus.packageRoot.appendingPathComponent("Sources/SeedRuntime/SeedRuntime.docc/SeedRuntime.md"), encoding: .utf8)
        #expect(guide.contains("```swift\n" + sample + "```"), "SeedRuntime.md's error-handling sample is not the one the example compiles")
        let folder = package.appendingPathComponent("Sources/ShelfApp/Seeds/Shelf")
        let model = folder.appendingPathComponent("Shelf.xcdatamodeld").path
        let verify = try SeedgenTool.run(["verify", seed, "--model", model])
        #expect(verify.status == 0, "\(verify.output)")
        #expect(try SQLiteShell.rows(seed, "SELECT b.ZTITLE, a.ZNAME FROM ZBOOK b JOIN ZAUTHOR a ON a.Z_PK = b.ZAUTHOR ORDER BY b.ZISBN")
                == ["The Way of Kings|Brandon Sanderson", "A Wizard of Earthsea|Ursula K. Le Guin"])

        // A seed folder with a model and no data (Seeds/Laps): an empty store of its model.
        let laps = URL(fileURLWithPath: seed).deletingLastPathComponent().appendingPathComponent("Laps.sqlite").path
        let lapsVerify = try SeedgenTool.run(["verify", laps, "--model", package.appendingPathComponent("Sources/ShelfApp/Seeds/Laps/Laps.xcdatamodel").path])
        #expect(lapsVerify.status == 0, "\(lapsVerify.output)\(lapsVerify.error)")
        #expect(try SQLiteShell.rows(laps, "SELECT count(*) FROM ZLAP") == ["0"])

        // Nothing changed: seedgen does not run again. (The first build after a cold start in a
        // new scratch folder can rebuild everything once, seedgen with it: SwiftPM's doing, seen
        // in CI's fresh clone, as after any change to the environment. One build settles it.)
        _ = try Self.build(package, scratch: scratch, data: data.path("app"))
        let again = try Self.build(package, scratch: scratch, data: data.path("app"))
        #expect(again.seed == seed && !again.ranSeedgen, "\(again.log.suffix(1500))")
        #expect(again.said == ["install: alreadyPresent", "initialisationCheck: initialised"], "\(again.said)")

        // The data changed: the seed is built again.
        let authors = folder.appendingPathComponent("Authors.csv")
        try (String(contentsOf: authors, encoding: .utf8) + "Robin Hobb,,true\n").write(to: authors, atomically: true, encoding: .utf8)
        let changed = try Self.build(package, scratch: scratch, data: data.path("app"))
        #expect(changed.seed == seed && changed.ranSeedgen)
        #expect(try SQLiteShell.rows(seed, "SELECT count(*) FROM ZAUTHOR") == ["3"])
    }
}
