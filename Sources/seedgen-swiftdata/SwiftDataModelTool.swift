import Foundation
import SeedModel
import SeedSwiftDataLoader

/// `seedgen-swiftdata PATH [--schema A,B,C]`: prints the model versions of a SwiftData app's
/// `@Model` sources as JSON: `{"current": NAME, "versions": [{"name": NAME, "model": MODEL}]}`,
/// each model in the form a seed carries in `SEEDGEN_MODEL`.
///
/// `seedgen` runs it when `--model` names Swift sources: swift-syntax's parser lives in this
/// helper alone, built without optimisation (its speed on a model's few files does not matter),
/// so that an optimised `seedgen` never compiles swift-syntax. Exit 0 with the JSON; 1 with the
/// model's error (`file:line:column: message`) on standard error; 2 for a usage error.
@main
enum SwiftDataModelTool {
    static func main() {
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
        do {
            let versions = try SwiftDataModelLoader.loadVersions(from: arguments[0], schema: schema)
            var output = Data("{\"current\":".utf8) + quoted(versions.current.name) + Data(",\"versions\":[".utf8)
            for (index, version) in versions.versions.enumerated() {
                if index > 0 { output += Data(",".utf8) }
                output += Data("{\"name\":".utf8) + quoted(version.name) + Data(",\"model\":".utf8) + version.model.json() + Data("}".utf8)
            }
            FileHandle.standardOutput.write(output + Data("]}".utf8))
        } catch {
            fail(error.description, status: 1)
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
