import Foundation
import PackagePlugin

/// Builds each seed of a target with `seedgen build` as part of the target's build: a folder
/// `Seeds/<Name>/` in the target holding a model (`.xcdatamodeld` or `.xcdatamodel`) and source
/// files (`.xml`, `.plist`, `.json`, `.csv`) becomes the resource `<Name>.sqlite`, reachable as
/// `Bundle.module.url(forResource: "<Name>", withExtension: "sqlite")`. The build runs again
/// only when a file of the model or of the data changes.
///
/// The sources are imported in the order of their names, unless `Seeds/<Name>/seedgen.json`
/// lists them: `{"inputs": ["teams.json", "Players.csv"], "options": ["--key", "Glass=name"]}`.
/// Exclude the `Seeds` folder from the target (`exclude: ["Seeds"]`): its files are inputs of
/// the plugin, not sources or resources of their own.
@main
struct SeedgenPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) async throws -> [Command] {
        guard let target = target as? SourceModuleTarget else { return [] }
        let seeds = target.directoryURL.appending(path: "Seeds")
        let tool = try context.tool(named: "seedgen").url
        return try SeedFolder.all(in: seeds).map { try $0.command(tool: tool, output: context.pluginWorkDirectoryURL) }
    }
}

#if canImport(XcodeProjectPlugin)
import XcodeProjectPlugin

extension SeedgenPlugin: XcodeBuildToolPlugin {
    /// In an Xcode project: the seed folders are the `Seeds/<Name>/` folders of the target's files.
    func createBuildCommands(context: XcodePluginContext, target: XcodeTarget) throws -> [Command] {
        let tool = try context.tool(named: "seedgen").url
        let folders = Set(target.inputFiles.compactMap { SeedFolder.folder(holding: $0.url) })
        return try folders.sorted { $0.path < $1.path }.map { try SeedFolder(url: $0).command(tool: tool, output: context.pluginWorkDirectoryURL) }
    }
}
#endif
