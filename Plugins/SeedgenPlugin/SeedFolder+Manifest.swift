import Foundation

/// `Seeds/<Name>/seedgen.json`: the inputs in order and build options, checked: only the
/// options a build of the seed may take, inputs inside the folder, never the manifest itself or
/// a hidden file as data; a malformed manifest is an error naming it.
extension SeedFolder {
    /// The manifest's name; it is never read as data.
    static let manifestName = "seedgen.json"

    /// The build options a manifest may give, and whether each takes a value: never `--output`,
    /// `--model` or `--help`, which are the plugin's (or would stop the build).
    static let buildOptions: [String: Bool] = [
        "--date-format": true, "--date-format-for": true, "--time-zone": true, "--key": true, "--section": true,
        "--entity": true, "--format": true, "--delimiter": true, "--framework-version": true, "--schema": true, "--updatable": false,
    ]

    /// `{"inputs": [...], "options": [...]}`, both optional, nothing else.
    static func readManifest(_ manifest: URL) throws -> (inputs: [String]?, options: [String]?) {
        let shape = "{\"inputs\": [\"file\", …], \"options\": [\"--key\", \"Entity=attribute\", …]}"
        guard let data = try? Data(contentsOf: manifest),
              let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw Problem(description: "\(manifest.path): not a seed manifest: a JSON object \(shape)")
        }
        if let unknown = object.keys.sorted().first(where: { $0 != "inputs" && $0 != "options" }) {
            throw Problem(description: "\(manifest.path): '\(unknown)' is no key of a seed manifest \(shape)")
        }
        func strings(_ key: String) throws -> [String]? {
            guard let value = object[key] else { return nil }
            guard let list = value as? [String] else { throw Problem(description: "\(manifest.path): '\(key)' must be an array of strings \(shape)") }
            return list
        }
        return (try strings("inputs"), try strings("options"))
    }

    /// A file the manifest names: inside the seed folder, never the manifest or a hidden file.
    static func input(named name: String, in folder: URL, manifest: URL) throws -> URL {
        let file = folder.appending(path: name).standardizedFileURL.resolvingSymlinksInPath()
        let root = folder.standardizedFileURL.resolvingSymlinksInPath().path + "/"
        guard !name.hasPrefix("/"), file.path.hasPrefix(root), !file.path.dropFirst(root.count).contains("/") else {
            throw Problem(description: "\(manifest.path): the input '\(name)' is not a file of the seed folder \(folder.path)")
        }
        guard file.lastPathComponent != manifestName, !file.lastPathComponent.hasPrefix(".") else {
            throw Problem(description: "\(manifest.path): the input '\(name)' is the manifest or a hidden file, which are never data")
        }
        return file
    }

    /// Options checked against `buildOptions`: each known, each value present; a bare word (an
    /// input) belongs in `inputs`, where it is tracked.
    static func checkedOptions(_ options: [String], manifest: URL) throws -> [String] {
        var index = 0
        while index < options.count {
            let option = options[index]
            let name = String(option.prefix { $0 != "=" })
            guard let takesValue = buildOptions[name] else {
                throw Problem(description: "\(manifest.path): '\(option)' is not a build option a manifest may give (\(buildOptions.keys.sorted().joined(separator: ", "))); inputs go in \"inputs\"")
            }
            if takesValue && !option.contains("=") {
                guard index + 1 < options.count else { throw Problem(description: "\(manifest.path): '\(option)' needs a value") }
                index += 1
            }
            index += 1
        }
        return options
    }
}
