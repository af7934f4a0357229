import Foundation
import SeedModel
import SeedSwiftDataLoader

/// `seedgen-swiftdata PATH [--schema A,B,C]`: prints the model versions of a SwiftData app's
/// `@Model` sources as JSON: `{"current": NAME, "versions": [{"name": NAME, "model": MODEL}],
/// "customStages": [{"from": NAME?, "to": NAME?, "place": P}], "unreadable": [{"name": NAME,
/// "reason": R}]}`, each model in the form a seed carries in `SEEDGEN_MODEL`.
///
/// `seedgen` runs it when `--model` names Swift sources: swift-syntax's parser lives in this
/// helper alone, built without optimisation (its speed on a model's few files does not matter),
/// so that an optimised `seedgen` never compiles swift-syntax. Exit 0 with the JSON; 1 with the
/// model's error (`file:line:column: message`) on standard error; 2 for a usage error.
@main
enum SwiftDataModelTool {
    static func main() {
        watchParent()
        var arguments = Array(CommandLine.arguments.dropFirst())
        var schema: [String]?
        if let flag = arguments.firstIndex(of: "--schema") {
            guard flag + 1 < arguments.count else { fail("--schema needs the model types, comma-separated", status: 2) }
            schema = arguments[flag + 1].split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            arguments.removeSubrange(flag...(flag + 1))
        }
        guard arguments.count == 1, !arguments[0].hasPrefix("-") else {
            fail("usage: seedgen-swiftdata PATH [--schema A,B,C]  (PATH: a .swift file or a folder of them)", status: 2)
        }
        // swift-syntax's parser recurses once per level of nesting; it runs on a thread with a
        // large stack (reserved, not used) so that hostile nesting is refused, not a crash.
        let path = arguments[0]
        let requested = schema
        let done = DispatchSemaphore(value: 0)
        let reader = Thread {
            read(path, schema: requested)
            done.signal()
        }
        reader.stackSize = stackSize
        reader.start()
        done.wait()
    }

    /// The reading thread's stack: 1 GiB of address space (a 16 MiB source nested 3,000 deep
    /// needs about 200 MiB in a debug build).
    static let stackSize = 1 << 30

    private static func read(_ path: String, schema: [String]?) {
        do {
            let versions = try SwiftDataModelLoader.loadVersions(from: path, schema: schema)
            var output = Data("{\"current\":".utf8) + quoted(versions.current.name) + Data(",\"versions\":[".utf8)
            for (index, version) in versions.versions.enumerated() {
                if index > 0 { output += Data(",".utf8) }
                output += Data("{\"name\":".utf8) + quoted(version.name) + Data(",\"model\":".utf8) + version.model.json() + Data("}".utf8)
            }
            output += Data("],\"customStages\":[".utf8)
            for (index, stage) in versions.customStages.enumerated() {
                if index > 0 { output += Data(",".utf8) }
                output += Data("{\"from\":".utf8) + (stage.from.map(quoted) ?? Data("null".utf8))
                output += Data(",\"to\":".utf8) + (stage.to.map(quoted) ?? Data("null".utf8))
                output += Data(",\"place\":".utf8) + quoted(stage.place) + Data("}".utf8)
            }
            output += Data("],\"unreadable\":[".utf8)
            for (index, version) in versions.unreadable.enumerated() {
                if index > 0 { output += Data(",".utf8) }
                output += Data("{\"name\":".utf8) + quoted(version.name) + Data(",\"reason\":".utf8) + quoted(version.reason) + Data("}".utf8)
            }
            FileHandle.standardOutput.write(output + Data("]}".utf8))
        } catch {
            fail(error.description, status: 1)
        }
    }

    /// Ends the helper when the seedgen that started it is gone (its parent changes): a killed
    /// seedgen leaves no helper behind.
    private static func watchParent() {
        let parent = getppid()
        Thread.detachNewThread {
            while true {
                sleep(1)
                if getppid() != parent { exit(3) }
            }
        }
    }

    private static func quoted(_ text: String) -> Data {
        (try? JSONEncoder().encode(text)) ?? Data("\"\"".utf8)
    }

    private static func fail(_ message: String, status: Int32) -> Never {
        FileHandle.standardError.write(Data((message + "\n").utf8))
        exit(status)
    }
}
