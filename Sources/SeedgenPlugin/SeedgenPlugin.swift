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

/// One `Seeds/<Name>/` folder: its model, its sources in import order, its options.
struct SeedFolder {
    /// What a seed folder's files say that is wrong, with the folder named.
    struct Problem: Error, CustomStringConvertible {
        var description: String
    }

    let url: URL
    let name: String
    let model: URL
    let inputs: [URL]
    let options: [String]

    static let sourceExtensions: Set<String> = ["xml", "plist", "json", "csv"]

    /// The seed folders of a `Seeds` folder (none when it does not exist), by name.
    static func all(in seeds: URL) throws -> [SeedFolder] {
        let entries = (try? FileManager.default.contentsOfDirectory(at: seeds, includingPropertiesForKeys: [.isDirectoryKey])) ?? []
        return try entries.filter(isDirectory).sorted { $0.lastPathComponent < $1.lastPathComponent }.map { try SeedFolder(url: $0) }
    }

    /// The seed folder a file lies in (`…/Seeds/<Name>/…`), if any.
    static func folder(holding file: URL) -> URL? {
        var folder = file.deletingLastPathComponent()
        while folder.pathComponents.count > 1 {
            if folder.deletingLastPathComponent().lastPathComponent == "Seeds" { return folder }
            folder = folder.deletingLastPathComponent()
        }
        return nil
    }

    init(url: URL) throws {
        self.url = url
        name = url.lastPathComponent
        let files = try FileManager.default.contentsOfDirectory(at: url, includingPropertiesForKeys: [.isDirectoryKey])
        let models = files.filter { ["xcdatamodeld", "xcdatamodel"].contains($0.pathExtension) }
        guard models.count == 1 else {
            throw Problem(description: "\(url.path): a seed folder holds one model (.xcdatamodeld or .xcdatamodel), not \(models.count)")
        }
        model = models[0]
        let manifest = url.appending(path: "seedgen.json")
        if FileManager.default.fileExists(atPath: manifest.path) {
            struct Manifest: Decodable {
                var inputs: [String]?
                var options: [String]?
            }
            let decoded: Manifest
            do {
                decoded = try JSONDecoder().decode(Manifest.self, from: Data(contentsOf: manifest))
            } catch {
                throw Problem(description: "\(manifest.path): not a seed manifest ({\"inputs\": [...], \"options\": [...]}): \(error)")
            }
            inputs = decoded.inputs.map { $0.map { url.appending(path: $0) } }
                ?? Self.sources(in: files)
            options = decoded.options ?? []
        } else {
            inputs = Self.sources(in: files)
            options = []
        }
        guard !inputs.isEmpty else { throw Problem(description: "\(url.path): no source files (.xml, .plist, .json, .csv)") }
    }

    private static func sources(in files: [URL]) -> [URL] {
        files.filter { sourceExtensions.contains($0.pathExtension.lowercased()) && !isDirectory($0) }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
    }

    private static func isDirectory(_ url: URL) -> Bool {
        (try? url.resourceValues(forKeys: [.isDirectoryKey]).isDirectory) == true
    }

    /// Every file of the model (a folder), so that a change to any of them rebuilds the seed.
    private var modelFiles: [URL] {
        let enumerator = FileManager.default.enumerator(at: model, includingPropertiesForKeys: [.isDirectoryKey])
        let files = (enumerator?.allObjects as? [URL] ?? []).filter { !Self.isDirectory($0) }
        return files.sorted { $0.path < $1.path }
    }

    /// `seedgen build` of this seed into `output/<Name>.sqlite`.
    func command(tool: URL, output: URL) throws -> Command {
        let store = output.appending(path: "\(name).sqlite")
        return .buildCommand(
            displayName: "seedgen: building the seed \(name).sqlite",
            executable: tool,
            arguments: ["build", "--model", model.path, "--output", store.path, "--quiet"] + options + inputs.map(\.path),
            inputFiles: modelFiles + inputs + [url.appending(path: "seedgen.json")].filter { FileManager.default.fileExists(atPath: $0.path) },
            outputFiles: [store]
        )
    }
}
