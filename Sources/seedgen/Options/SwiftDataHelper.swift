import Foundation
import SeedModel

/// Reads SwiftData sources through `seedgen-swiftdata`, the helper that holds swift-syntax's
/// parser, and decodes the model it prints. Kept out of process so that an optimised seedgen
/// never compiles swift-syntax (a release build of it alone took over 14 minutes on 2 cores).
enum SwiftDataHelper {
    static let name = "seedgen-swiftdata"
    /// Names the helper's path explicitly (the Makefile sets it for `make seed`).
    static let environmentKey = "SEEDGEN_SWIFTDATA"

    /// The model versions of the sources under `path` (one, unless they declare a
    /// `SchemaMigrationPlan`); the helper's refusal (its `file:line:column`) is exit 1, a helper
    /// that cannot be found or run exit 2.
    static func loadVersions(_ path: String, schema: [String]?) throws -> ModelVersions {
        let helper = try location()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: helper)
        process.arguments = [path] + (schema.map { ["--schema", $0.joined(separator: ",")] } ?? [])
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        do {
            try process.run()
        } catch {
            throw CommandFailure.usage("cannot run \(helper): \(error.localizedDescription)")
        }
        // Standard error is drained beside standard output, so neither pipe fills and blocks the helper.
        let drained = ErrorDrain(errors.fileHandleForReading)
        let json = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let message = String(decoding: drained.wait(), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        switch (process.terminationReason, process.terminationStatus) {
        case (.exit, 0):
            do {
                return try versions(from: json, source: path)
            } catch {
                throw CommandFailure.usage("\(helper) printed no model seedgen can read (\(error)); is it from the same seedgen?")
            }
        case (.exit, 1):
            throw CommandFailure.failed(message)
        default:
            throw CommandFailure.usage("\(helper) failed (\(process.terminationReason == .exit ? "exit" : "signal") \(process.terminationStatus))\(message.isEmpty ? "" : ": " + message)")
        }
    }

    /// The helper's `{"current": NAME, "versions": [{"name": NAME, "model": MODEL}]}`.
    private static func versions(from json: Data, source: String) throws -> ModelVersions {
        struct Malformed: Error {}
        guard let object = try JSONSerialization.jsonObject(with: json) as? [String: Any],
              let current = object["current"] as? String, let entries = object["versions"] as? [[String: Any]] else { throw Malformed() }
        var versions: [ModelVersions.Version] = []
        for entry in entries {
            guard let name = entry["name"] as? String, let model = entry["model"] else { throw Malformed() }
            versions.append(ModelVersions.Version(name: name, model: try DataModel(json: JSONSerialization.data(withJSONObject: model), source: source)))
        }
        guard let found = versions.first(where: { $0.name == current }) else { throw Malformed() }
        return ModelVersions(versions: versions, current: found)
    }

    /// `$SEEDGEN_SWIFTDATA`, else the helper beside this seedgen, else in `PATH`.
    static func location() throws -> String {
        if let path = ProcessInfo.processInfo.environment[environmentKey], !path.isEmpty {
            guard FileManager.default.isExecutableFile(atPath: path) else {
                throw CommandFailure.usage("\(environmentKey)=\(path): no executable there")
            }
            return path
        }
        var candidates: [String] = []
        if let own = Bundle.main.executableURL?.resolvingSymlinksInPath() {
            candidates.append(own.deletingLastPathComponent().appendingPathComponent(name).path)
        }
        for folder in (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":") {
            candidates.append(URL(fileURLWithPath: String(folder)).appendingPathComponent(name).path)
        }
        guard let found = candidates.first(where: FileManager.default.isExecutableFile(atPath:)) else {
            throw CommandFailure.usage("SwiftData sources are read by \(name), which is neither beside seedgen nor in PATH: build it (swift build --product \(name); make release builds both) or name it with \(environmentKey)")
        }
        return found
    }
}

/// Reads a pipe to its end on a thread of its own.
private final class ErrorDrain: @unchecked Sendable {
    private var data = Data()
    private let done = DispatchSemaphore(value: 0)

    init(_ handle: FileHandle) {
        Thread.detachNewThread { [self] in
            data = handle.readDataToEndOfFile()
            done.signal()
        }
    }

    /// The bytes, once the writer closed the pipe.
    func wait() -> Data {
        done.wait()
        return data
    }
}
