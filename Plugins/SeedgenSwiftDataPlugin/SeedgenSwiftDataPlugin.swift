import Foundation
import PackagePlugin

/// `SeedgenPlugin` for SwiftData apps: a folder `Seeds/<Name>/` without a Core Data model is
/// built from the app's `@Model` sources, those in `Seeds/<Name>/Model/` or else the target's own
/// Swift files, into the resource `<Name>.sqlite`; `seedgen.json` may name the model types
/// (`"options": ["--schema", "Recipe"]`). A folder with an `.xcdatamodeld` is built as
/// `SeedgenPlugin` builds it.
///
/// A plugin of its own because it builds `seedgen-swiftdata` (and so swift-syntax) for the
/// host: an app whose seeds all have Core Data models uses `SeedgenPlugin` and builds neither.
/// The shared `SeedFolder` files are `SeedgenPlugin`'s, linked here.
@main
struct SeedgenSwiftDataPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) async throws -> [Command] {
        guard let target = target as? SourceModuleTarget else { return [] }
        let seeds = target.directoryURL.appending(path: "Seeds")
        let swiftFiles = target.sourceFiles(withSuffix: "swift").map(\.url).sorted { $0.path < $1.path }
        let sources = SeedFolder.SwiftSources(folder: target.directoryURL, files: swiftFiles)
        let tool = try context.tool(named: "seedgen").url
        let environment = ["SEEDGEN_SWIFTDATA": try context.tool(named: "seedgen-swiftdata").url.path]
        return try SeedFolder.all(in: seeds, swiftSources: sources).map {
            try $0.command(tool: tool, output: context.pluginWorkDirectoryURL, environment: environment)
        }
    }
}
