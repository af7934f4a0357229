import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs the built `seedgen` executable, as a user or CI would.
public enum SeedgenTool {
    /// What one run printed and returned.
    public struct Result: Sendable {
        /// The exit status.
        public var status: Int32
        /// Standard output.
        public var output: String
        /// Standard error (without the peak memory line).
        public var error: String
        /// seedgen's peak resident memory in bytes, when it reported it (`SEEDGEN_REPORT_PEAK_MEMORY`).
        public var peakMemory: Int?
    }

    /// The memory a run on a hostile input of `bytes` may take: seedgen itself takes about
    /// 30 MiB, libxml2 holds at most one token of the input, and nothing else may grow with it.
    public static func memoryBound(forInput bytes: Int) -> Int {
        96 << 20 + 2 * bytes
    }

    /// Whether `peakMemory` is held to `memoryBound`: not under a sanitizer (`make sanitize`),
    /// whose shadow memory counts as the program's own.
    public static let checksMemory = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "__asan_init") == nil
        && dlsym(UnsafeMutableRawPointer(bitPattern: 0), "__tsan_init") == nil

    /// Whether a run stayed within `memoryBound(forInput:)` (always true when not checked).
    public static func staysWithinMemory(_ result: Result, input bytes: Int) -> Bool {
        !checksMemory || (result.peakMemory ?? .max) <= memoryBound(forInput: bytes)
    }

    /// The executable: `$SEEDGEN_BINARY`, or `seedgen` beside the test bundle in the build folder.
    public static let executable: URL? = {
        if let path = ProcessInfo.processInfo.environment["SEEDGEN_BINARY"], !path.isEmpty {
            return URL(fileURLWithPath: path)
        }
        return program(named: "seedgen")
    }()

    /// A program this package builds (`seedgen`, `emplan`, ...), found beside the test bundle.
    public static func program(named name: String) -> URL? {
        let runner = URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL.resolvingSymlinksInPath()
        var directory = runner.deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = directory.appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            directory = directory.deletingLastPathComponent()
        }
        return nil
    }

    /// Runs `seedgen` with `arguments` and waits for it.
    public static func run(_ arguments: [String], in directory: URL? = nil, timeout: TimeInterval = 300) throws -> Result {
        try run(program: executable, arguments, in: directory, timeout: timeout)
    }

    /// Runs a program with `arguments` and waits for it; one still running after `timeout`
    /// seconds is terminated (so that a hang fails a test instead of stalling the run).
    public static func run(program executable: URL?, _ arguments: [String], in directory: URL? = nil,
                           timeout: TimeInterval = 300) throws -> Result {
        guard let executable else {
            throw CocoaError(.fileNoSuchFile, userInfo: [NSLocalizedDescriptionKey: "the program was not found beside \(CommandLine.arguments[0])"])
        }
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(["SEEDGEN_REPORT_PEAK_MEMORY": "1"]) { $1 }
        if let directory { process.currentDirectoryURL = directory }
        let output = Pipe()
        let error = Pipe()
        process.standardOutput = output
        process.standardError = error
        try process.run()
        // Weakly: a strong capture kept every process and its four pipe descriptors open until
        // its timeout (300 s), so a test run held 2,000 of them, and Foundation's Process.run()
        // on Linux over-reads /proc/self/fd when it holds that many (swift-corelibs-foundation
        // #5472): the test process crashed with SIGSEGV in one CI run.
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout) { [weak process] in
            if let process, process.isRunning { process.terminate() }
        }
        try? output.fileHandleForWriting.close()
        try? error.fileHandleForWriting.close()
        // Read both pipes before waiting, so that a full pipe cannot block the child.
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        let errorData = error.fileHandleForReading.readDataToEndOfFile()
        try? output.fileHandleForReading.close()
        try? error.fileHandleForReading.close()
        process.waitUntilExit()
        var errorText = String(decoding: errorData, as: UTF8.self)
        var peakMemory: Int?
        if let line = errorText.range(of: "seedgen: peak memory: ", options: .backwards),
           let end = errorText[line.upperBound...].firstIndex(of: " ") {
            peakMemory = Int(errorText[line.upperBound..<end]).map { $0 * 1024 }
            errorText.removeSubrange(line.lowerBound...)
        }
        return Result(status: process.terminationStatus, output: String(decoding: outputData, as: UTF8.self),
                      error: errorText, peakMemory: peakMemory)
    }

    /// Starts `seedgen` with `arguments`, its output discarded, and kills it with SIGKILL after
    /// `seconds` (or lets it finish first): what a power cut or the OOM killer does to a run.
    public static func kill(_ arguments: [String], after seconds: TimeInterval) throws {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        usleep(useconds_t(seconds * 1_000_000))
        #if canImport(Glibc)
        Glibc.kill(process.processIdentifier, SIGKILL)
        #else
        Darwin.kill(process.processIdentifier, SIGKILL)
        #endif
        process.waitUntilExit()
    }
}
