import Foundation
import SeedImport

/// `seedgen build`'s progress line on standard error, when it is a terminal: which file of how
/// many, the percent of all inputs' bytes read, rows and rows per second, the time left (from
/// the bytes per second so far), then the finishing phases; at the end the exact row count.
final class BuildProgress {
    let enabled: Bool
    let repository: SeedRepository
    let started: Date
    /// Each input's name and size in bytes.
    let inputs: [(name: String, size: Int)]
    private var lastShown = Date.distantPast
    private var lastWidth = 0

    init(enabled: Bool, repository: SeedRepository, inputs: [InputFile], started: Date) {
        self.enabled = enabled
        self.repository = repository
        self.started = started
        self.inputs = inputs.map { file in ((file.path as NSString).lastPathComponent, file.size) }
    }

    /// `read` of the `total` bytes of input number `file` are read.
    func report(file: Int, read: Int, of total: Int) {
        guard enabled, Date().timeIntervalSince(lastShown) > 0.2 || read == total else { return }
        let before = inputs.prefix(file).reduce(0) { $0 + $1.size }
        let all = max(inputs.reduce(0) { $0 + $1.size }, 1)
        let done = before + read
        let seconds = max(Date().timeIntervalSince(started), 0.001)
        let left = done > 0 ? Double(all - done) / (Double(done) / seconds) : 0
        show(String(format: "%@ (%d of %d): %.0f%% of %.1f MB, %d rows, %.0f rows/s, about %@ left",
                    inputs[file].name, file + 1, inputs.count, Double(done) * 100 / Double(all), Double(all) / 1e6,
                    repository.rowsWritten, Double(repository.rowsWritten) / seconds, Self.duration(left)))
    }

    /// A finishing phase has begun.
    func phase(_ name: String) {
        show("\(repository.rowsWritten) rows read; \(name)…")
    }

    /// The build is done: the exact number of rows and the time it took.
    func done() {
        guard enabled else { return }
        let seconds = Date().timeIntervalSince(started)
        show(String(format: "%d rows in %.1f s", repository.rowsWritten, seconds))
        endLine()
    }

    /// Ends the line shown, if one is (before an error message, which starts a line of its own).
    func endLine() {
        guard lastWidth > 0 else { return }
        lastWidth = 0
        FileHandle.standardError.write(Data("\n".utf8))
    }

    private func show(_ text: String) {
        guard enabled else { return }
        lastShown = Date()
        let padding = String(repeating: " ", count: max(lastWidth - text.count, 0))
        lastWidth = text.count
        FileHandle.standardError.write(Data(("\r" + text + padding).utf8))
    }

    /// `42 s`, `3 min 5 s`.
    static func duration(_ seconds: Double) -> String {
        let whole = Int(seconds.rounded())
        return whole < 60 ? "\(whole) s" : "\(whole / 60) min \(whole % 60) s"
    }
}
