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

    @Test("the chunks are the file's bytes in order, through both buffers many times; then the end, every time")
    func chunksInOrder() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        for size in [0, 1, 4096, 4097, 3 * 4096 + 123, 40 * 4096] {
            let bytes = Self.randomBytes(size)
            let path = directory.path("file-\(size)")
            #expect(FileManager.default.createFile(atPath: path, contents: Data(bytes)))
            let reader = try ChunkReader(file: InputFile(opening: path), chunkSize: 4096)
            defer { reader.close() }
            var read: [UInt8] = []
            var chunks = 0
            while true {
                let chunk = try reader.next()
                if chunk.isEmpty { break }
                #expect(chunk.count <= 4096)
                read.append(contentsOf: chunk)
                chunks += 1
            }
            let same = read == bytes  // (compared apart: the expectation would print every byte)
            #expect(same, "\(size) bytes read back as \(read.count), in another order or other bytes")
            #expect(chunks == (size + 4095) / 4096)
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

    @Test("a file set aside and replaced since its check is refused when its reading starts, naming it")
    func replacedBeforeReading() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = try directory.write("<A/>", to: "a.xml")
        let file = try InputFile(opening: path)
        file.setAside()
        let other = try directory.write("<B/>", to: "b.xml")
        #expect(rename(other, path) == 0)
        let error = try #require(throws: InputError.self) { try ChunkReader(file: file, chunkSize: 4096) }
        #expect(error.location.file == path && error.message.contains("replaced by another file"), "\(error)")
    }
}
