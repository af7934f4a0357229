import Foundation
import SeedModel

/// Reads SwiftData sources through `seedgen-swiftdata`, the helper that holds swift-syntax's
/// parser, and decodes the model it prints. Kept out of process so that an optimised seedgen
/// never compiles swift-syntax (a release build of it alone took over 14 minutes on 2 cores).
enum SwiftDataHelper {
    static let name = "seedgen-swiftdata"
    /// Names the helper's path explicitly (the Makefile sets it for `make seed`).
    static let environmentKey = "SEEDGEN_SWIFTDATA"

    /// The model of the `@Model` classes under `path`; the helper's refusal (its `file:line:column`)
    /// is exit 1, a helper that cannot be found or run exit 2.
    static func loadModel(_ path: String, schema: [String]?) throws -> DataModel {
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
                return try DataModel(json: json, source: path)
            } catch {
                throw CommandFailure.usage("\(helper) printed no model seedgen can read (\(error)); is it from the same seedgen?")
            }
        case (.exit, 1):
            throw CommandFailure.failed(message)
        default:
            throw CommandFailure.usage("\(helper) failed (\(process.terminationReason == .exit ? "exit" : "signal") \(process.terminationStatus))\(message.isEmpty ? "" : ": " + message)")
        }
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
