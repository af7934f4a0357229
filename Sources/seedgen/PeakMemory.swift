import Foundation

/// `SEEDGEN_REPORT_PEAK_MEMORY=1`: at exit, whatever the outcome, seedgen writes its peak
/// resident memory as the last line of standard error (`seedgen: peak memory: N KiB`). The
/// tests use it to bound the memory of every hostile input; a parent cannot measure it, as
/// Linux gives a spawned program the parent's own peak until it exits.
enum PeakMemory {
    static let variable = "SEEDGEN_REPORT_PEAK_MEMORY"

    /// Registers the report when the environment asks for it.
    static func reportAtExitIfAsked() {
        guard ProcessInfo.processInfo.environment[variable] == "1" else { return }
        atexit {
            guard let kibibytes = PeakMemory.kibibytes() else { return }
            FileHandle.standardError.write(Data("seedgen: peak memory: \(kibibytes) KiB\n".utf8))
        }
    }

    /// This program's peak resident memory: `VmHWM` of its own address space on Linux (which a
    /// new program starts afresh), `ru_maxrss` elsewhere.
    static func kibibytes() -> Int? {
        #if os(Linux)
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }) else { return nil }
        return Int(line.dropFirst("VmHWM:".count).filter(\.isNumber))  // "VmHWM:\t   31244 kB"
        #else
        var usage = rusage()
        guard getrusage(RUSAGE_SELF, &usage) == 0 else { return nil }
        return Int(usage.ru_maxrss) / 1024  // bytes on Apple platforms
        #endif
    }
}
