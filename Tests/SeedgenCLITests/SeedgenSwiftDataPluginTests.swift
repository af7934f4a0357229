import Foundation
import SeedgenTestSupport
import Testing

/// SeedgenSwiftDataPlugin: a SwiftData app package (Tests/SwiftDataPluginExample) gets its seed
/// built from its @Model sources by `swift build`. Its build compiles swift-syntax for the host
/// (about 2.5 minutes on 2 cores), so it runs on `make plugin-swiftdata`, not in `make test`.
@Suite("SeedgenSwiftDataPlugin", .enabled(if: ProcessInfo.processInfo.environment["SEEDGEN_SWIFTDATA_PLUGIN"] != nil,
                                          "set SEEDGEN_SWIFTDATA_PLUGIN=1 (make plugin-swiftdata)"))
struct SeedgenSwiftDataPluginTests {
    @Test("swift build turns Seeds/Recipes (its Model/ sources and data) into the resource Recipes.sqlite, which verifies as built",
          .timeLimit(.minutes(20)))
    func exampleBuildsItsSeed() throws {
        let (package, scratch) = try SeedgenPluginTests.prepareExample("SwiftDataPluginExample")
        // The seed is the repository's Seeds/Recipes (its @Model sources and data), copied in.
        let recipes = Corpus.packageRoot.appendingPathComponent("Seeds/Recipes")
        let folder = package.appendingPathComponent("Sources/RecipeApp/Seeds/Recipes")
        for name in ["Model", "recipes.json"] {
            try FileManager.default.copyItem(at: recipes.appendingPathComponent(name), to: folder.appendingPathComponent(name))
        }
        let swift = URL(fileURLWithPath: "/usr/bin/env")
        let resolve = try SeedgenTool.run(program: swift, ["swift", "package", "--package-path", package.path, "--scratch-path", scratch.path, "resolve"], timeout: 300)
        #expect(resolve.status == 0, "\(resolve.error)")
        let build = try SeedgenTool.run(program: swift, ["swift", "build", "--package-path", package.path, "--scratch-path", scratch.path], timeout: 1200)
        #expect(build.status == 0, "\(build.output.suffix(2000))\(build.error.suffix(2000))")
        #expect(build.output.contains("seedgen: building the seed Recipes.sqlite"))
        let app = try SeedgenTool.run(program: scratch.appendingPathComponent("debug/RecipeApp"), [])
        #expect(app.status == 0, "\(app.output)\(app.error)")
        let seed = app.output.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(seed.hasSuffix("/SwiftDataPluginExample_RecipeApp.resources/Recipes.sqlite"), "\(seed)")
        let model = package.appendingPathComponent("Sources/RecipeApp/Seeds/Recipes/Model").path
        let verify = try SeedgenTool.run(["verify", "--as-built", seed, "--model", model, "--schema", "Recipe"])
        #expect(verify.status == 0, "\(verify.output)\(verify.error)")
        #expect(try SQLiteShell.rows(seed, "SELECT count(*) FROM ZRECIPE") == ["4"])
        // Nothing changed: the seed is not built again (after the one build that settles a cold
        // scratch folder, as SeedgenPluginTests explains).
        let arguments = ["swift", "build", "--package-path", package.path, "--scratch-path", scratch.path]
        _ = try SeedgenTool.run(program: swift, arguments, timeout: 600)
        let again = try SeedgenTool.run(program: swift, arguments, timeout: 600)
        #expect(again.status == 0 && !again.output.contains("seedgen: building the seed"), "\(again.output)")
        // A model source changed: the seed is built again, with the new attribute.
        let source = package.appendingPathComponent("Sources/RecipeApp/Seeds/Recipes/Model/Recipe.swift")
        let text = try String(contentsOf: source, encoding: .utf8)
        try text.replacingOccurrences(of: "    var serves: Int = 2\n", with: "    var serves: Int = 2\n    var rating: Int = 5\n").write(to: source, atomically: true, encoding: .utf8)
        let changed = try SeedgenTool.run(program: swift, arguments, timeout: 600)
        #expect(changed.status == 0 && changed.output.contains("seedgen: building the seed Recipes.sqlite"), "\(changed.output)")
        #expect(try SQLiteShell.rows(seed, "SELECT DISTINCT ZRATING FROM ZRECIPE") == ["5"])
    }
}
