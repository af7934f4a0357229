import Foundation
import SeedgenTestSupport
import Testing

/// One exit-status rule for every command (`seedgen --help`): 0 the job done, 1 the data or a
/// store is wrong, 2 a usage error or a file that cannot be read.
@Suite("exit status")
struct ExitStatusTests {
    @Test("a missing input, model or store, or a file that is not a store: 2; a wrong model or a finding: 1")
    func oneRule() throws {
        let directory = try DiffCommandTests.setUp()
        defer { directory.remove() }
        let model = directory.path("Shelf.xcdatamodel")
        let store = try DiffCommandTests.build(DiffCommandTests.v1, as: "v1", in: directory)
        let junk = try directory.write("not a store", to: "junk.sqlite")
        let missing = directory.path("missing.sqlite")
        let wrongModel = try directory.write("<model><entity name=\"A\" parentEntity=\"Nope\"/></model>", to: "Wrong.xcdatamodel/contents")
        let cases: [([String], Int32)] = [
            (["build", "--model", model, "--output", directory.path("o.sqlite"), directory.path("missing.json")], 2),
            (["build", "--model", model, "--output", directory.path("o.sqlite"), directory.path("Shelf.xcdatamodel")], 2),
            (["build", "--model", directory.path("Missing.xcdatamodel"), "--output", directory.path("o.sqlite")], 2),
            (["build", "--model", wrongModel, "--output", directory.path("o.sqlite")], 1),
            (["hash", "--model", directory.path("Missing.xcdatamodel")], 2),
            (["hash", "--model", wrongModel], 1),
            (["verify", missing, "--model", model], 2),
            (["verify", junk, "--model", model], 2),
            (["verify", store, "--model", model], 0),
            (["dump", missing, "--model", model], 2),
            (["dump", junk, "--model", model], 2),
            (["fetch", junk, "--model", model, "--entity", "Book"], 2),
            (["inspect", junk], 2),
            (["migrate", junk, "--model", model], 2),
            (["migrate", store, "--model", directory.path("Missing.xcdatamodel")], 2),
            (["migrate", store, "--model", wrongModel], 1),
            (["diff", junk, store], 2),
            (["diff", store, store], 0),
            (["update", missing, "--seed", store], 2),
            (["build", "--model", model], 2),
        ]
        for (arguments, status) in cases {
            let result = try SeedgenTool.run(arguments)
            #expect(result.status == status, "seedgen \(arguments.joined(separator: " ")): \(result.status), not \(status): \(result.error)")
        }
    }
}
