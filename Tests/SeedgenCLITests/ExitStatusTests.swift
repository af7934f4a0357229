import Foundation
import SeedgenTestSupport
import Testing

/// One exit-status rule for every command (`seedgen --help`): 0 the job done, 1 the data or a
/// store is wrong (a file read and refused for what it holds included), 2 a usage error or a
/// file that cannot be read or written at all.
@Suite("exit status")
struct ExitStatusTests {
    @Test("a missing input, model or store: 2; a file that is not a store, a wrong model or a finding: 1")
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
            (["verify", junk, "--model", model], 1),
            (["verify", store, "--model", model], 0),
            (["dump", missing, "--model", model], 2),
            (["dump", junk, "--model", model], 1),
            (["fetch", junk, "--model", model, "--entity", "Book"], 1),
            (["inspect", junk], 1),
            (["migrate", junk, "--model", model], 1),
            (["migrate", store, "--model", directory.path("Missing.xcdatamodel")], 2),
            (["migrate", store, "--model", wrongModel], 1),
            (["diff", junk, store], 1),
            (["diff", store, store], 0),
            (["update", missing, "--seed", store], 2),
            (["build", "--model", model], 2),
            (["verify", directory.path("Shelf.xcdatamodel"), "--model", model], 2),
            (["install", junk, directory.path("installed.sqlite")], 1),
            (["update", store, "--seed", junk], 1),
            (["diff", store, missing], 2),
        ]
        for (arguments, status) in cases {
            let result = try SeedgenTool.run(arguments)
            #expect(result.status == status, "seedgen \(arguments.joined(separator: " ")): \(result.status), not \(status): \(result.error)")
        }
    }

    @Test("a seed cut short, given to install (with or without its model) or to update, and a store whose seed record does not add up: 1, one line naming the file and what is wrong, nothing written")
    func refusedForContent() throws {
        let directory = try DiffCommandTests.setUp()
        defer { directory.remove() }
        let model = directory.path("Shelf.xcdatamodel")
        let seed = try DiffCommandTests.build(DiffCommandTests.v1, as: "v1", in: directory)
        let seed2 = try DiffCommandTests.build(DiffCommandTests.v1.replacingOccurrences(of: "Three", with: "Four"), as: "v2", in: directory)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: seed))
        let cut = directory.path("cut.sqlite")
        try bytes.prefix(bytes.count / 2).write(to: URL(fileURLWithPath: cut))
        let installed = directory.path("installed.sqlite")
        #expect(try SeedgenTool.run(["install", seed, installed]).status == 0)
        for arguments in [["install", cut, directory.path("a.sqlite")], ["install", cut, directory.path("b.sqlite"), "--model", model], ["update", installed, "--seed", cut]] {
            let result = try SeedgenTool.run(arguments)
            #expect(result.status == 1, "seedgen \(arguments.joined(separator: " ")): \(result.status): \(result.error)")
            #expect(result.error.contains("cut.sqlite") && result.error.contains("truncated") && !result.error.contains("SQLite error"), "\(result.error)")
            #expect(result.error.components(separatedBy: "cut.sqlite").count == 2, "the path is said once: \(result.error)")
        }
        #expect(!FileManager.default.fileExists(atPath: directory.path("a.sqlite")) && !FileManager.default.fileExists(atPath: directory.path("b.sqlite")))
        // Two objects recorded under one key: the record does not add up.
        try FullRecord.unpack(at: installed)
        try SQLiteShell.execute("UPDATE SEEDGEN_SEEDED SET KEY = (SELECT MAX(KEY) FROM SEEDGEN_SEEDED s WHERE s.ENTITY = SEEDGEN_SEEDED.ENTITY) WHERE ENTITY = (SELECT MIN(ENTITY) FROM SEEDGEN_SEEDED)", on: installed)
        let before = try Data(contentsOf: URL(fileURLWithPath: installed))
        let update = try SeedgenTool.run(["update", installed, "--seed", seed2])
        #expect(update.status == 1 && update.error.contains("recorded under one key") && !update.error.contains("SQLite error"), "\(update.status): \(update.error)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: installed)) == before, "nothing was changed")
        // An object recorded with no key: said so (it was called two objects 'Z_PK 0 and 0').
        let keyless = directory.path("keyless.sqlite")
        #expect(try SeedgenTool.run(["install", seed, keyless]).status == 0)
        try FullRecord.unpack(at: keyless)
        try SQLiteShell.execute("UPDATE SEEDGEN_SEEDED SET KEY = NULL WHERE ENTITY = (SELECT MIN(ENTITY) FROM SEEDGEN_SEEDED) AND PK = (SELECT MAX(PK) FROM SEEDGEN_SEEDED WHERE ENTITY = (SELECT MIN(ENTITY) FROM SEEDGEN_SEEDED))", on: keyless)
        let noKey = try SeedgenTool.run(["update", keyless, "--seed", seed2])
        #expect(noKey.status == 1 && noKey.error.contains("is recorded with no key") && !noKey.error.contains("Z_PK 0"), "\(noKey.status): \(noKey.error)")
        // A digest that is none: damage, not the user's edit (it was taken as one, exit 0).
        for (name, digest, found) in [("short", "x'00'", "1 bytes"), ("text", "'abc'", "text"), ("null", "NULL", "null")] {
            let damaged = directory.path("\(name).sqlite")
            #expect(try SeedgenTool.run(["install", seed, damaged]).status == 0)
            try FullRecord.unpack(at: damaged)
            try SQLiteShell.execute("UPDATE SEEDGEN_SEEDED SET DIGEST = \(digest) WHERE ENTITY = (SELECT MIN(ENTITY) FROM SEEDGEN_SEEDED) AND PK = (SELECT MIN(PK) FROM SEEDGEN_SEEDED WHERE ENTITY = (SELECT MIN(ENTITY) FROM SEEDGEN_SEEDED))", on: damaged)
            let bytes = try Data(contentsOf: URL(fileURLWithPath: damaged))
            let result = try SeedgenTool.run(["update", damaged, "--seed", seed2])
            #expect(result.status == 1 && result.error.contains("is recorded with a digest of \(found), not 16 bytes"), "\(name): \(result.status): \(result.error)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: damaged)) == bytes)
        }
    }
}
