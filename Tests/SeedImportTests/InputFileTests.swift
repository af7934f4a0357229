import Foundation
import SeedgenTestSupport
import Testing
@testable import SeedImport

@Suite("Input files")
struct InputFileTests {
    @Test("a file set aside is read again from the same file; one replaced since its check is refused, naming it, when read or its chunks read")
    func setAsideAndOpenedAgain() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = try directory.write("{\"A\": []}", to: "a.json")
        let file = try InputFile(opening: path)
        file.setAside()
        #expect(try file.head(4) == Array("{\"A\"".utf8))
        let replaced = try InputFile(opening: path)
        replaced.setAside()
        let other = try directory.write("{\"B\": []}", to: "b.json")
        #expect(rename(other, path) == 0)
        let error = try #require(throws: InputError.self) { try replaced.head(4) }
        #expect(error.location.file == path && error.message.contains("replaced by another file"), "\(error)")
        // A parse reads through `ChunkReader`, which opens it on the caller's thread: refused too.
        let reading = try #require(throws: InputError.self) { try ChunkReader(file: replaced, chunkSize: 4096) }
        #expect(reading.location.file == path && reading.message.contains("replaced by another file"), "\(reading)")
    }
}
