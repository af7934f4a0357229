import Foundation
import SeedgenTestSupport
import Testing

/// The concept folders of SeedStore, SeedImport and SeedEvolution depend one way: no folder names a type of a
/// folder that (through others) names one of its own. Read from the sources: a folder uses
/// another when one of its files names a type declared there (comments left out).
@Suite("Folder dependencies")
struct FolderDependencyTests {
    /// Folder -> the folders it uses, with one file and type that makes each use.
    static func uses(inModule module: String) throws -> [String: [String: String]] {
        let root = Corpus.packageRoot.appendingPathComponent("Sources/\(module)")
        var sources: [(folder: String, file: String, text: String)] = []
        let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)
        while let url = walker?.nextObject() as? URL {
            guard url.pathExtension == "swift" else { continue }
            let folder = url.deletingLastPathComponent().path.dropFirst(root.path.count).trimmingCharacters(in: CharacterSet(charactersIn: "/"))
            let text = try String(contentsOf: url, encoding: .utf8).split(separator: "\n").map { line in
                line.range(of: "//").map { String(line[..<$0.lowerBound]) } ?? String(line)
            }.joined(separator: "\n")
            sources.append((folder.isEmpty ? "(top)" : folder, url.lastPathComponent, text))
        }
        let declaration = /(?m)^(?:(?:public|package|private|fileprivate|internal|final|indirect)\s+)*(?:class|struct|enum|protocol|actor|typealias)\s+([A-Za-z_][A-Za-z0-9_]*)/
        var home: [String: String] = [:]
        for source in sources {
            for match in source.text.matches(of: declaration) { home[String(match.1)] = source.folder }
        }
        var uses: [String: [String: String]] = [:]
        for source in sources {
            for word in Set(source.text.matches(of: /\b[A-Z][A-Za-z0-9_]*\b/).map { String($0.0) }) {
                guard let folder = home[word], folder != source.folder else { continue }
                uses[source.folder, default: [:]][folder] = "\(source.file) names \(word)"
            }
        }
        return uses
    }

    /// A cycle of folders, each using the next, with why; nil when there is none.
    static func cycle(in uses: [String: [String: String]]) -> [String]? {
        var state: [String: Bool] = [:]  // false: on the current path; true: done
        var path: [String] = []
        func visit(_ folder: String) -> [String]? {
            if state[folder] == true { return nil }
            if state[folder] == false {
                let start = path.firstIndex(of: folder)!
                return Array(path[start...]) + [folder]
            }
            state[folder] = false
            path.append(folder)
            for next in (uses[folder] ?? [:]).keys.sorted() {
                if let found = visit(next) { return found }
            }
            path.removeLast()
            state[folder] = true
            return nil
        }
        for folder in uses.keys.sorted() {
            if let found = visit(folder) { return found }
        }
        return nil
    }

    @Test("SeedStore's, SeedImport's and SeedEvolution's folders form no cycle", arguments: [("SeedStore", 5), ("SeedImport", 5), ("SeedEvolution", 1)])
    func noCycle(_ module: String, folders: Int) throws {
        let uses = try Self.uses(inModule: module)
        #expect(uses.count >= folders, "\(module): \(uses.keys.sorted())")
        if let cycle = Self.cycle(in: uses) {
            let why = zip(cycle, cycle.dropFirst()).map { "\($0) -> \($1) (\(uses[$0]![$1]!))" }
            Issue.record("\(module): \(why.joined(separator: ", "))")
        }
    }

    @Test("a cycle is found: the check can fail")
    func cycleFound() {
        #expect(Self.cycle(in: ["A": ["B": ""], "B": ["C": ""], "C": ["A": ""]]) == ["A", "B", "C", "A"])
        #expect(Self.cycle(in: ["A": ["B": ""], "B": ["C": ""], "D": ["A": ""]]) == nil)
    }
}
