import Foundation
import PackagePlugin

/// One `Seeds/<Name>/` folder: its model, its sources in import order, its options.
struct SeedFolder {
    /// What a seed folder's files say that is wrong, with the folder named.
    struct Problem: Error, CustomStringConvertible {
        var description: String
    }

    let url: URL
    let name: String
    /// The Core Data model, or the SwiftData sources (`Model/` in the folder, else the target's).
    let model: URL
    /// Every file of the model, so that a change to any of them rebuilds the seed.
    let modelFiles: [URL]
    let inputs: [URL]
    let options: [String]

    /// SwiftData sources a seed folder without a Core Data model may be built from: the
    /// target's own Swift files (nil where the plugin reads Core Data models only).
    struct SwiftSources {
        let folder: URL
        let files: [URL]
    }

    static let sourceExtensions: Set<String> = ["xml", "plist", "json", "jsonl", "ndjson", "csv", "tsv"]

    /// The seed folders of a `Seeds` folder (none when it does not exist), by name.
    static func all(in seeds: URL, swiftSources: SwiftSources? = nil) throws -> [SeedFolder] {
        let entries = (try? FileManager.default.contentsOfDirectory(at: seeds, includingPropertiesForKeys: [.isDirectoryKey])) ?? []
        return try entries.filter(isDirectory).sorted { $0.lastPathComponent < $1.lastPathComponent }.map { try SeedFolder(url: $0, swiftSources: swiftSources) }
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

    init(url: URL, swiftSources: SwiftSources? = nil) throws {
        self.url = url
        name = url.lastPathComponent
        let files = try FileManager.default.contentsOfDirectory(at: url, includingPropertiesForKeys: [.isDirectoryKey])
        let models = files.filter { ["xcdatamodeld", "xcdatamodel"].contains($0.pathExtension) }
        let modelFolder = url.appending(path: "Model")
        if models.count == 1 {
            model = models[0]
            modelFiles = Self.files(under: model)
        } else if models.isEmpty, let swiftSources {
            // A SwiftData app: its @Model sources, in Model/ beside the data or the target's own.
            let own = Self.files(under: modelFolder).filter { $0.pathExtension == "swift" }
            model = own.isEmpty ? swiftSources.folder : modelFolder
            modelFiles = own.isEmpty ? swiftSources.files : own
        } else {
            let kinds = swiftSources == nil ? "(.xcdatamodeld or .xcdatamodel; SeedgenSwiftDataPlugin reads SwiftData sources)" : "(.xcdatamodeld or .xcdatamodel, or none for SwiftData sources)"
            throw Problem(description: "\(url.path): a seed folder holds one model \(kinds), not \(models.count)")
        }
        let manifest = url.appending(path: Self.manifestName)
        if FileManager.default.fileExists(atPath: manifest.path) {
            let decoded = try Self.readManifest(manifest)
            inputs = try decoded.inputs.map { try $0.map { try Self.input(named: $0, in: url, manifest: manifest) } } ?? Self.sources(in: files)
            options = try Self.checkedOptions(decoded.options ?? [], manifest: manifest)
        } else {
            inputs = Self.sources(in: files)
            options = []
        }
        // No source files: the seed is an empty store of the model (LapTimer's).
    }

    /// The folder's source files in name order: never the manifest, never a hidden file.
    private static func sources(in files: [URL]) -> [URL] {
        files.filter { file in
            sourceExtensions.contains(file.pathExtension.lowercased()) && !isDirectory(file)
                && file.lastPathComponent != manifestName && !file.lastPathComponent.hasPrefix(".")
        }
        .sorted { $0.lastPathComponent < $1.lastPathComponent }
    }

    private static func isDirectory(_ url: URL) -> Bool {
        (try? url.resourceValues(forKeys: [.isDirectoryKey]).isDirectory) == true
    }

    /// Every file under `folder` (none when it does not exist), by path.
    private static func files(under folder: URL) -> [URL] {
        let enumerator = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isDirectoryKey])
        let files = (enumerator?.allObjects as? [URL] ?? []).filter { !Self.isDirectory($0) }
        return files.sorted { $0.path < $1.path }
    }

    /// `seedgen build` of this seed into `output/<Name>.sqlite`; `environment` names the
    /// SwiftData reader for seedgen (`SEEDGEN_SWIFTDATA`) where the plugin has one.
    func command(tool: URL, output: URL, environment: [String: String] = [:]) throws -> Command {
        let store = output.appending(path: "\(name).sqlite")
        return .buildCommand(
            displayName: "seedgen: building the seed \(name).sqlite",
            executable: tool,
            arguments: ["build", "--model", model.path, "--output", store.path, "--quiet"] + options + inputs.map(\.path),
            environment: environment,
            inputFiles: modelFiles + inputs + [url.appending(path: Self.manifestName)].filter { FileManager.default.fileExists(atPath: $0.path) },
            outputFiles: [store]
        )
    }
}
