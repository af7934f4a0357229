import Foundation
import SeedgenTestSupport
import Testing
@testable import SeedImport

@Suite("Chunks read ahead on a thread of their own")
struct ChunkReaderTests {
    /// Random bytes, to tell every chunk's place.
    private static func randomBytes(_ count: Int) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
    }

    @Test("any file, any chunk size: the chunks are its bytes in order, through both buffers many times; then the end, every time")
    func chunksInOrder() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        // The edges (empty, one byte, a chunk, a chunk and a byte), then random sizes and chunks.
        var cases = [(0, 4096), (1, 4096), (4096, 4096), (4097, 4096), (40 * 4096, 4096)]
        for _ in 0..<PropertyCases.count(makeTest: 40) {
            let chunkSize = Int.random(in: 1...5000)
            cases.append((Int.random(in: 0...(12 * chunkSize)), chunkSize))
        }
        for (index, (size, chunkSize)) in cases.enumerated() {
            let bytes = Self.randomBytes(size)
            let path = directory.path("file-\(index)")
            #expect(FileManager.default.createFile(atPath: path, contents: Data(bytes)))
            let reader = try ChunkReader(file: InputFile(opening: path), chunkSize: chunkSize)
            defer { reader.close() }
            var read: [UInt8] = []
            var chunks = 0
            while true {
                let chunk = try reader.next()
                if chunk.isEmpty { break }
                #expect(chunk.count <= chunkSize)
                read.append(contentsOf: chunk)
                chunks += 1
            }
            let same = read == bytes  // (compared apart: the expectation would print every byte)
            #expect(same, "\(size) bytes in chunks of \(chunkSize) read back as \(read.count), in another order or other bytes")
            #expect(chunks == (size + chunkSize - 1) / chunkSize, "\(size) bytes in chunks of \(chunkSize)")
            #expect(try reader.next().isEmpty && reader.next().isEmpty, "the end is given again")
        }
    }

    @Test("closed before the end of the file, the reading thread stops: close returns, twice")
    func closedEarly() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("big")
        #expect(FileManager.default.createFile(atPath: path, contents: Data(Self.randomBytes(64 * 4096))))
        for chunksRead in 0..<3 {
            let reader = try ChunkReader(file: InputFile(opening: path), chunkSize: 4096)
            for _ in 0..<chunksRead { #expect(try reader.next().count == 4096) }
            reader.close()
            reader.close()
        }
    }
}
