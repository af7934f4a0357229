import SeedModel
import SeedStore

/// The next `Z_PK` of one table.
final class PrimaryKeySequence {
    @exclusivity(unchecked) private var last: Int64 = 0
    /// The line and column each tracked row was defined at, by `Z_PK` (line 0: not tracked):
    /// 8 bytes a row, read only for a message, in chunks (growing copies at most the last one).
    /// The file is kept once per run of rows from one file, and for a row defined apart from its
    /// run (a `Z_PK` reserved by references, taken later) beside it.
    @exclusivity(unchecked) private var lines: [[(line: UInt32, column: UInt32)]] = []
    @exclusivity(unchecked) private var count = 0
    private var files: [(firstPrimaryKey: Int64, file: String)] = []
    private var filesApart: [Int64: String] = [:]
    private static let chunk = 1 << 16

    func next() -> Int64 {
        last += 1
        return last
    }

    /// Records where the row with this `Z_PK` was defined.
    func define(_ primaryKey: Int64, at location: InputLocation) {
        let index = Int(primaryKey - 1)
        if index >= count {
            // A new run when the file changes; the first run covers the Z_PKs reserved before it.
            if files.last?.file != location.file { files.append((files.isEmpty ? 1 : primaryKey, location.file)) }
            // Chunks before the row's are full; the row's grows by doubling (a small import allocates little).
            let (chunk, offset) = index.quotientAndRemainder(dividingBy: Self.chunk)
            while lines.count <= chunk {
                if let last = lines.indices.last { lines[last].append(contentsOf: repeatElement((line: 0, column: 0), count: Self.chunk - lines[last].count)) }
                lines.append([])
            }
            if lines[chunk].count <= offset {
                let size = min(Self.chunk, max(offset + 1, 2 * lines[chunk].count))
                lines[chunk].append(contentsOf: repeatElement((line: 0, column: 0), count: size - lines[chunk].count))
            }
            count = index + 1
        } else if runFile(of: primaryKey) != location.file {
            filesApart[primaryKey] = location.file
        }
        lines[index / Self.chunk][index % Self.chunk] = (UInt32(clamping: location.line), UInt32(clamping: location.column))
    }

    /// Where the row with this `Z_PK` was defined, when it was recorded.
    func definition(of primaryKey: Int64) -> InputLocation? {
        let index = Int(primaryKey - 1)
        guard index >= 0, index < count, case let place = lines[index / Self.chunk][index % Self.chunk], place.line > 0,
              let file = filesApart[primaryKey] ?? runFile(of: primaryKey) else { return nil }
        return InputLocation(file: file, line: Int(place.line), column: max(1, Int(place.column)))
    }

    private func runFile(of primaryKey: Int64) -> String? {
        files.last(where: { $0.firstPrimaryKey <= primaryKey })?.file
    }
}
