import SeedModel
import Foundation

/// Finds and reads a Core Data model: an `.xcdatamodeld` bundle (honouring `.xccurrentversion`),
/// an `.xcdatamodel` folder, or a bare `contents` file.
public enum ModelLoader {
    /// Loads and checks the model at `path`.
    public static func load(from path: String) throws(ModelError) -> DataModel {
        let contents = try locateContents(of: path)
        let bytes: [UInt8]
        do {
            bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: contents)))
        } catch {
            throw ModelError(file: contents, line: nil, message: "cannot read the model file: \(error.localizedDescription)")
        }
        return try ModelParser.parse(bytes, file: contents)
    }

    /// Loads and checks every version of the model at `path`: each `.xcdatamodel` of an
    /// `.xcdatamodeld` bundle, with the one `.xccurrentversion` names as current; a single
    /// version for an `.xcdatamodel` folder or a `contents` file.
    public static func loadVersions(from path: String) throws(ModelError) -> ModelVersions {
        let url = URL(fileURLWithPath: path)
        guard url.pathExtension == "xcdatamodeld" else {
            let version = ModelVersions.Version(name: url.deletingPathExtension().lastPathComponent, model: try load(from: path))
            return ModelVersions(versions: [version], current: version)
        }
        let current = try currentVersion(in: url).lastPathComponent
        var versions: [ModelVersions.Version] = []
        for folder in try versionFolders(in: url) {
            versions.append(ModelVersions.Version(name: String(folder.dropLast(".xcdatamodel".count)), model: try load(from: url.appendingPathComponent(folder).path)))
        }
        let currentName = String(current.dropLast(".xcdatamodel".count))
        guard let found = versions.first(where: { $0.name == currentName }) else {
            throw ModelError(file: path, line: nil, message: "the current version '\(current)' is not an .xcdatamodel of the bundle")
        }
        return ModelVersions(versions: versions, current: found)
    }

    /// The `.xcdatamodel` folders of a bundle, by name as Xcode lists them (`Model`, `Model 2`, …, `Model 10`).
    private static func versionFolders(in bundle: URL) throws(ModelError) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: bundle.path)) ?? [])
            .filter { $0.hasSuffix(".xcdatamodel") }
            .map { String($0.dropLast(".xcdatamodel".count)) }
            .sorted { $0.compare($1, options: .numeric) == .orderedAscending }
            .map { $0 + ".xcdatamodel" }
    }

    /// The path of the `contents` XML file that `path` stands for.
    public static func locateContents(of path: String) throws(ModelError) -> String {
        let fileManager = FileManager.default
        var isDirectory: ObjCBool = false
        guard fileManager.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw ModelError(file: path, line: nil, message: "no such model file or folder")
        }
        let url = URL(fileURLWithPath: path)
        let ext = url.pathExtension
        if ext == "momd" || ext == "mom" || ext == "omo" {
            throw ModelError(file: path, line: nil, message: "this is a compiled model; give the .xcdatamodeld source instead")
        }
        guard isDirectory.boolValue else {
            try requireRegularFile(path)
            try rejectBinaryFormat(at: path)
            return path
        }
        if ext == "xcdatamodeld" {
            return try locateContents(of: currentVersion(in: url).path)
        }
        let contents = url.appendingPathComponent("contents").path
        if fileManager.fileExists(atPath: contents) {
            try requireRegularFile(contents)
            return contents
        }
        if fileManager.fileExists(atPath: url.appendingPathComponent("elements").path) {
            throw ModelError(file: path, line: nil, message: "this model is in the old Xcode 3 binary format; open and re-save it in Xcode")
        }
        throw ModelError(file: path, line: nil, message: "not a Core Data model: no 'contents' file inside")
    }

    /// The version folder of an `.xcdatamodeld` that is current.
    private static func currentVersion(in bundle: URL) throws(ModelError) -> URL {
        let marker = bundle.appendingPathComponent(".xccurrentversion")
        if let data = try? Data(contentsOf: marker) {
            let plist = try? PropertyListSerialization.propertyList(from: data, format: nil)
            guard let name = (plist as? [String: Any])?["_XCCurrentVersionName"] as? String else {
                throw ModelError(file: marker.path, line: nil, message: "no _XCCurrentVersionName string in .xccurrentversion")
            }
            // A version inside this bundle, named plainly: never a path that leaves it.
            guard !name.isEmpty, !name.contains("/"), name != ".", name != ".." else {
                throw ModelError(file: marker.path, line: nil, message: "the current version '\(name)' is not a model version inside the bundle")
            }
            let version = bundle.appendingPathComponent(name)
            guard FileManager.default.fileExists(atPath: version.path) else {
                throw ModelError(file: marker.path, line: nil, message: "the current version '\(name)' does not exist in the bundle")
            }
            return version
        }
        let versions = try versionFolders(in: bundle)
        guard versions.count == 1 else {
            let message = versions.isEmpty
                ? "the bundle holds no .xcdatamodel version"
                : "the bundle holds \(versions.count) versions (\(versions.joined(separator: ", "))) and no .xccurrentversion to choose one"
            throw ModelError(file: bundle.path, line: nil, message: message)
        }
        return bundle.appendingPathComponent(versions[0])
    }

    /// Throws unless `path` is a regular file (after symbolic links): opening a FIFO would block
    /// until a writer comes, a device would read without end.
    private static func requireRegularFile(_ path: String) throws(ModelError) {
        var info = stat()
        guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            throw ModelError(file: path, line: nil, message: "not a regular file (a FIFO, socket or device): a model is a 'contents' file or a folder holding one")
        }
    }

    private static func rejectBinaryFormat(at path: String) throws(ModelError) {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw ModelError(file: path, line: nil, message: "cannot read the model file")
        }
        defer { try? handle.close() }
        let magic = handle.readData(ofLength: 8)
        if magic == Data("bplist00".utf8) {
            throw ModelError(file: path, line: nil, message: "this is a binary property list, not a model's XML 'contents'")
        }
    }
}
