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
    let model: URL
    let inputs: [URL]
    let options: [String]

    static let sourceExtensions: Set<String> = ["xml", "plist", "json", "jsonl", "ndjson", "csv", "tsv"]

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
            inputFiles: modelFiles + inputs + [url.appending(path: Self.manifestName)].filter { FileManager.default.fileExists(atPath: $0.path) },
            outputFiles: [store]
        )
    }
}
