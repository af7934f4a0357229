import Foundation

/// Inputs a fuzz target once failed on (`Tests/Fuzz/regressions/<target>/`): each is kept and
/// run by a test, through the same code as the target, on every `make test`.
public enum FuzzRegressions {
    /// The files kept for `target`, by name, with their bytes.
    public static func inputs(of target: String) throws -> [(name: String, bytes: [UInt8])] {
        let folder = Corpus.packageRoot.appendingPathComponent("Tests/Fuzz/regressions/\(target)")
        return try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted().map { name in
            (name, [UInt8](try Data(contentsOf: folder.appendingPathComponent(name))))
        }
    }
}
