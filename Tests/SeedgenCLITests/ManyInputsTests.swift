import Foundation
import SeedgenTestSupport
import Testing

/// `seedgen build` opens and checks every input before it builds and reads each from what it
/// opened: a seed of more files than the open-file limit a shell gives (256 by default on macOS)
/// still builds.
@Suite("many inputs")
struct ManyInputsTests {
    @Test("400 input files under a limit of 128 open files: built, every object in the store")
    func moreInputsThanTheOpenFileLimit() throws {
        let directory = try DiffCommandTests.setUp()
        defer { directory.remove() }
        let files = try (0..<400).map { number in
            try directory.write(#"{"Shelf": [{"label": "shelf \#(number)"}]}"#, to: "shelf-\(number).json")
        }
        let executable = try #require(SeedgenTool.executable)
        let store = directory.path("many.sqlite")
        // The limit is lowered for seedgen alone, by the shell that starts it.
        let result = try SeedgenTool.run(program: URL(fileURLWithPath: "/bin/sh"),
                                         ["-c", #"ulimit -n 128 && exec "$0" "$@""#, executable.path, "build",
                                          "--model", directory.path("Shelf.xcdatamodel"), "--output", store, "--quiet"] + files)
        #expect(result.status == 0, "\(result)")
        #expect(try SQLiteShell.rows(store, "SELECT count(*) FROM ZSHELF") == ["400"])
    }
}
