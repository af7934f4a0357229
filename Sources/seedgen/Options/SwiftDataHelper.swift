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
        let limit = try timeLimit()
        let watchdog = Watchdog(process: process, seconds: limit)
        let json = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let timedOut = watchdog.finish()
        let message = String(decoding: drained.wait(), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        if timedOut {
            throw CommandFailure.usage("\(helper) read \(path) for more than \(limit) s and was stopped (raise the limit with \(timeLimitKey)=SECONDS)")
        }
        switch (process.terminationReason, process.terminationStatus) {
        case (.exit, 0):
            do {
                return try versions(from: json, source: path)
            } catch {
                throw CommandFailure.usage("\(helper) printed no model seedgen can read (\(error)); is it from the same seedgen?")
            }
        case (.exit, 1) where !message.isEmpty && !message.contains("\n"):
            throw CommandFailure.failed(message)
        case (.exit, let status):
            let first = message.split(separator: "\n").first.map(String.init) ?? ""
            throw CommandFailure.usage("\(helper) failed with exit \(status) \(first.isEmpty ? "and said nothing" : "saying: " + first)")
        case (.uncaughtSignal, let signal):
            throw CommandFailure.usage("\(helper) crashed (signal \(signal)) reading \(path); the sources may nest types deeper than it can follow")
        @unknown default:
            throw CommandFailure.usage("\(helper) ended abnormally reading \(path)")
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
        var result = ModelVersions(versions: versions, current: found)
        for stage in object["customStages"] as? [[String: Any]] ?? [] {
            guard let place = stage["place"] as? String else { throw Malformed() }
            result.customStages.append(.init(from: stage["from"] as? String, to: stage["to"] as? String, place: place))
        }
        for version in object["unreadable"] as? [[String: Any]] ?? [] {
            guard let name = version["name"] as? String, let reason = version["reason"] as? String else { throw Malformed() }
            result.unreadable.append(.init(name: name, reason: reason))
        }
        return result
    }

    /// Names the helper's time limit in seconds (default ``defaultTimeLimit``).
    static let timeLimitKey = "SEEDGEN_SWIFTDATA_TIMEOUT"
    /// The helper's default time limit: a model's sources read in well under a second here.
    static let defaultTimeLimit = 120

    /// `$SEEDGEN_SWIFTDATA_TIMEOUT` (whole seconds, 1 to 86400), else the default.
    static func timeLimit() throws -> Int {
        guard let text = ProcessInfo.processInfo.environment[timeLimitKey], !text.isEmpty else { return defaultTimeLimit }
        guard let seconds = Int(text), (1...86_400).contains(seconds) else {
            throw CommandFailure.usage("\(timeLimitKey)=\(text): give whole seconds from 1 to 86400")
        }
        return seconds
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

/// Stops the helper once its time limit is over (SIGTERM, then SIGKILL a second later).
private final class Watchdog: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private let lock = NSLock()
    private var fired = false

    init(process: Process, seconds: Int) {
        let pid = process.processIdentifier
        Thread.detachNewThread { [self] in
            guard done.wait(timeout: .now() + .seconds(seconds)) == .timedOut else { return }
            lock.withLock { fired = true }
            kill(pid, SIGTERM)
            if done.wait(timeout: .now() + .seconds(1)) == .timedOut { kill(pid, SIGKILL) }
        }
    }

    /// Called once the helper has ended: true when the time limit stopped it.
    func finish() -> Bool {
        done.signal()
        return lock.withLock { fired }
    }
}
