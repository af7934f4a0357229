import Foundation
import SeedModel

/// The Swift files a `--model` path names: the file itself, or every `.swift` file beneath a
/// folder, in path order (so a model reads the same on every machine).
enum SwiftSourceFiles {
    /// Folders deeper than this are not searched: a link cycle or a hostile tree ends here.
    static let depthLimit = 32
    /// Folders a package keeps its build products and checkouts in, never its model.
    private static let skippedFolders: Set<String> = [".build", ".swiftpm", "DerivedData", "Pods", "Carthage", "node_modules"]

    /// The files, sorted by path; a folder without any is an error naming it.
    static func list(_ path: String) throws(ModelError) -> [String] {
        var info = stat()
        guard stat(path, &info) == 0 else {
            throw ModelError(file: path, line: nil, message: "no such Swift file or folder")
        }
        switch info.st_mode & S_IFMT {
        case S_IFREG:
            guard path.hasSuffix(".swift") else {
                throw ModelError(file: path, line: nil, message: "not a Swift source (.swift) or a folder of them")
            }
            return [path]
        case S_IFDIR:
            var found: [String] = []
            var visited: Set<[UInt64]> = [[UInt64(info.st_dev), UInt64(info.st_ino)]]
            try collect(in: path, depth: 0, into: &found, visited: &visited)
            guard !found.isEmpty else {
                throw ModelError(file: path, line: nil, message: "no .swift file in this folder (and it is no Core Data model: no 'contents' inside)")
            }
            return found.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        default:
            throw ModelError(file: path, line: nil, message: "not a regular file or folder (a FIFO, socket or device)")
        }
    }

    /// Adds the regular `.swift` files under `folder`; hidden entries and build folders are
    /// skipped, and a folder reached twice (through a link) is read once.
    private static func collect(in folder: String, depth: Int, into found: inout [String], visited: inout Set<[UInt64]>) throws(ModelError) {
        guard depth < depthLimit else {
            throw ModelError(file: folder, line: nil, message: "folders nested deeper than \(depthLimit) levels (a link cycle?)")
        }
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: folder)
        } catch {
            throw ModelError(file: folder, line: nil, message: "cannot list the folder: \(error.localizedDescription)")
        }
        for name in names where !name.hasPrefix(".") && !skippedFolders.contains(name) {
            let path = folder.hasSuffix("/") ? folder + name : folder + "/" + name
            var info = stat()
            guard stat(path, &info) == 0 else { continue }
            switch info.st_mode & S_IFMT {
            case S_IFDIR:
                guard visited.insert([UInt64(info.st_dev), UInt64(info.st_ino)]).inserted else { continue }
                try collect(in: path, depth: depth + 1, into: &found, visited: &visited)
            case S_IFREG where name.hasSuffix(".swift"): found.append(path)
            default: continue
            }
        }
    }
}
