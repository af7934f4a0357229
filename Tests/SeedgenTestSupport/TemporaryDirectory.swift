import Foundation
import SeedStore

/// A fresh directory under the system's temporary folder, removed by `remove()`.
public struct TemporaryDirectory: Sendable {
    /// The directory.
    public let url: URL

    /// Creates a new, empty directory.
    public init() throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("seedgen-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// A path inside the directory.
    public func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    /// Writes `text` to a file inside the directory and returns its path.
    @discardableResult
    public func write(_ text: String, to name: String) throws -> String {
        let file = url.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: file)
        return file.path
    }

    /// Copies a file into the directory (made writable) and returns the copy's path.
    public func copy(_ source: URL, as name: String? = nil) throws -> String {
        let target = url.appendingPathComponent(name ?? source.lastPathComponent)
        try FileManager.default.copyItem(at: source, to: target)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: target.path)
        return target.path
    }

    /// Installs a seed into the directory as the runtime's policy `.update` (and `seedgen
    /// install`) do — a copy that records the seed it holds, so that a later seed can update it —
    /// and returns the store's path. The record is packed, as an install writes it, unless
    /// `packed` is false (the full record, for tests that read its rows).
    public func install(_ seed: String, as name: String, packed: Bool = true) throws -> String {
        let target = try copy(URL(fileURLWithPath: seed), as: name)
        _ = try SeedRecord.recordInstalledCopy(at: target, packed: packed)
        return target
    }

    /// Deletes the directory and everything in it.
    public func remove() {
        try? FileManager.default.removeItem(at: url)
    }
}
