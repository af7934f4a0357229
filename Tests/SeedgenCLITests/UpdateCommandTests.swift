import Foundation
import SeedgenTestSupport
import Testing

/// `seedgen update`: a store installed from seed 1 of `DiffCommandTests.model` (a copy that
/// records the seed, as `seedgen install` and the runtime make it), changed as its app would change it (SQL on the copy: a user's values, a user's own
/// object and link), brought to seed 2 and seed 3.
@Suite("seedgen update")
struct UpdateCommandTests {
    typealias Build = DiffCommandTests

    static let v2 = ShelfModel.v2

    static func install(_ seed: String, as name: String = "installed.sqlite", in directory: TemporaryDirectory) throws -> String {
        try ShelfModel.installWithUserEdits(seed, as: name, in: directory)
    }


    static func update(_ store: String, to seed: String, _ directory: TemporaryDirectory, json: Bool = false) throws -> SeedgenTool.Result {
        try SeedgenTool.run(["update", store, "--seed", seed, "--model", directory.path("Shelf.xcdatamodel")] + (json ? ["--json"] : []))
    }

    @Test("the report's lines name each rule (added, changed, removed, kept for the user); exit 0; again: the seed is there already, the bytes unchanged")
    func everyRule() throws {
        let directory = try Build.setUp()
        defer { directory.remove() }
        let seed1 = try Build.build(Build.v1, as: "v1", in: directory)
        let seed2 = try Build.build(Self.v2, as: "v2", in: directory)
        let store = try Self.install(seed1, in: directory)
        let result = try Self.update(store, to: seed2, directory)
        #expect(result.status == 0, "\(result.output)\(result.error)")
        let lines = Set(result.output.split(separator: "\n").map(String.init))
        for expected in [#"+ Book[isbn="4"]"#, #"~ Book[isbn="1"]"#, #"- Author[name="Bob"]"#,
                         #"= Book[isbn="2"] kept: the user changed it"#, #"= Book[isbn="3"] kept: something of the user's points at it"#] {
            #expect(lines.contains(expected), "\(expected) in:\n\(result.output)")
        }
        let before = try Data(contentsOf: URL(fileURLWithPath: store))
        let again = try Self.update(store, to: seed2, directory)
        #expect(again.status == 0 && again.output.contains("holds this seed already"), "\(again.output)\(again.error)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: store)) == before)
    }

    @Test("--json: the report as JSON, an object without a key named by its values, as seedgen diff names it; the text report too")
    func jsonReport() throws {
        let directory = try Build.setUp()
        defer { directory.remove() }
        let seed1 = try Build.build(Build.v1, as: "v1", in: directory)
        let v3 = Self.v2.replacingOccurrences(of: "\"Four\"", with: "\"Vier\"").replacingOccurrences(of: "{\"label\": \"low\"}", with: "{\"label\": \"low\"}, {\"label\": \"new\"}")
        let seed3 = try Build.build(v3, as: "v3", in: directory)
        let json = try Self.update(try Self.install(seed1, as: "straight.sqlite", in: directory), to: seed3, directory, json: true)
        let report = try #require(try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any])
        #expect(json.status == 0 && report["updated"] as? Bool == true)
        let added = try #require(report["added"] as? [[String: String]])
        #expect(added.map { $0["entity"]! }.sorted() == ["Book", "Shelf"] && added.contains { $0["key"] == #"isbn="4""# }, "\(added)")
        #expect(added.contains { $0["entity"] == "Shelf" && $0["key"] == #"label="new""# }, "\(added)")
        let diff = try SeedgenTool.run(["diff", seed1, seed3, "--model", directory.path("Shelf.xcdatamodel")])
        #expect(diff.output.contains(#"+ Shelf(label="new")"#), "\(diff.output)")
        let text = try Self.update(try Self.install(seed1, as: "text.sqlite", in: directory), to: seed3, directory)
        #expect(text.output.contains(#"+ Shelf(label="new")"#), "\(text.output)")
    }

    @Test("the model changed too: with --model the bundle, or without it by the models the seeds carry, the report says the store was migrated first, then its updates",
          arguments: [true, false])
    func modelChangedToo(givenTheBundle: Bool) throws {
        let directory = try Build.setUp()
        defer { directory.remove() }
        let seed1 = try Build.build(Build.v1, as: "v1", in: directory)
        // Version 2: Book gains pages (a default), Shelf's label is renamed name.
        let v2Model = Build.model
            .replacingOccurrences(of: #"<attribute name="price""#, with: #"<attribute name="pages" optional="YES" attributeType="Integer 16" defaultValueString="100" usesScalarValueType="YES"/><attribute name="price""#)
            .replacingOccurrences(of: #"<attribute name="label" optional="YES" attributeType="String"/>"#, with: #"<attribute name="name" optional="YES" attributeType="String" elementID="label"/>"#)
        let bundle = try ClubModels.writeBundle([("Shelf", Build.model), ("Shelf 2", v2Model)], current: "Shelf 2", in: directory)
        let source = try directory.write(Self.v2.replacingOccurrences(of: #""label""#, with: #""name""#), to: "v2.json")
        let seed2 = directory.path("v2.sqlite")
        let build = try SeedgenTool.run(["build", "--model", bundle, "--output", seed2, "--quiet", "--key", "Book=isbn", source])
        #expect(build.status == 0, "\(build.error)")
        let store = try Self.install(seed1, in: directory)
        let result = try SeedgenTool.run(["update", store, "--seed", seed2] + (givenTheBundle ? ["--model", bundle] : []))
        #expect(result.status == 0, "\(result.output)\(result.error)")
        let lines = Set(result.output.split(separator: "\n").map(String.init))
        let migrated = givenTheBundle ? "Shelf to Shelf 2" : "the installed seed's model to the new seed's model"
        for expected in ["\(store): migrated from \(migrated) first", #"+ Book[isbn="4"]"#, #"~ Book[isbn="1"]"#,
                         #"= Book[isbn="2"] kept: the user changed it"#] {
            #expect(lines.contains(expected), "\(expected) in:\n\(result.output)")
        }
        #expect(!result.output.contains("Shelf["), "\(result.output)")
    }

    @Test("two updates started together: both succeed, one updates, the other finds the seed already there")
    func twoAtOnce() async throws {
        let directory = try Build.setUp()
        defer { directory.remove() }
        let seed1 = try Build.build(Build.v1, as: "v1", in: directory)
        let seed2 = try Build.build(Self.v2, as: "v2", in: directory)
        let store = try Self.install(seed1, in: directory)
        let arguments = ["update", store, "--seed", seed2, "--model", directory.path("Shelf.xcdatamodel")]
        async let first = Task.detached { try SeedgenTool.run(arguments) }.value
        async let second = Task.detached { try SeedgenTool.run(arguments) }.value
        let results = try await [first, second]
        #expect(results.allSatisfy { $0.status == 0 }, "\(results.map(\.error))")
        #expect(results.filter { $0.output.contains("holds this seed already") }.count == 1, "\(results.map(\.output))")
        #expect(try SQLiteShell.rows(store, "SELECT COUNT(*) FROM ZBOOK WHERE ZISBN = '4'") == ["1"])
    }

    @Test("seedgen install: the store records its seed and updates from it; over an existing file: exit 1, its bytes unchanged, nothing beside it")
    func installCommand() throws {
        let directory = try Build.setUp()
        defer { directory.remove() }
        let seed1 = try Build.build(Build.v1, as: "v1", in: directory)
        let seed2 = try Build.build(Self.v2, as: "v2", in: directory)
        let store = directory.path("data/installed.sqlite")
        let install = try SeedgenTool.run(["install", seed1, store])
        #expect(install.status == 0 && install.output.contains("recorded"), "\(install.output)\(install.error)")
        // Packed: ten bytes an object.
        #expect(try SQLiteShell.rows(store, "SELECT SUM(length(ENTRIES)) / 10 FROM SEEDGEN_PACKED") == SQLiteShell.rows(seed1, "SELECT (SELECT COUNT(*) FROM ZAUTHOR) + (SELECT COUNT(*) FROM ZBOOK) + (SELECT COUNT(*) FROM ZSHELF)"))
        #expect(try SQLiteShell.rows(seed1, "SELECT COUNT(*) FROM sqlite_master WHERE name LIKE 'SEEDGEN_%ED'") == ["0"], "the seed itself is left as it is")
        let before = try Data(contentsOf: URL(fileURLWithPath: store))
        let again = try SeedgenTool.run(["install", seed2, store])
        #expect(again.status == 1 && again.error.contains("exists") && again.error.contains("seedgen update"), "\(again.error)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: store)) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path("data")).sorted() == [".installed.sqlite.seedgen-lock", "installed.sqlite"])
        let update = try Self.update(store, to: seed2, directory)
        #expect(update.status == 0 && update.output.contains(#"+ Book[isbn="4"]"#), "\(update.output)\(update.error)")
        let missing = try SeedgenTool.run(["install", directory.path("none.sqlite"), directory.path("other.sqlite")])
        #expect(missing.status == 2 && !FileManager.default.fileExists(atPath: directory.path("other.sqlite")), "\(missing.error)")
    }

    @Test("no seed record, another model version, a missing seed: refused, the store's bytes unchanged")
    func refusals() throws {
        let directory = try Build.setUp()
        defer { directory.remove() }
        let seed1 = try Build.build(Build.v1, as: "v1", in: directory)
        let seed2 = try Build.build(Self.v2, as: "v2", in: directory)
        let store = try Self.install(seed1, in: directory)
        try SQLiteShell.execute("DROP TABLE SEEDGEN_PACKED", on: store)
        let before = try Data(contentsOf: URL(fileURLWithPath: store))
        let unrecorded = try Self.update(store, to: seed2, directory)
        #expect(unrecorded.status == 1 && unrecorded.error.contains("carries no record of the seed it was installed from"), "\(unrecorded.error)")
        // A plain copy of the seed records nothing: refused, naming what records a store.
        let copied = try directory.copy(URL(fileURLWithPath: seed1), as: "copied.sqlite")
        let copiedBytes = try Data(contentsOf: URL(fileURLWithPath: copied))
        let plain = try Self.update(copied, to: seed2, directory)
        #expect(plain.status == 1 && plain.error.contains("carries no record") && plain.error.contains("seedgen install"), "\(plain.error)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: copied)) == copiedBytes)
        let other = try directory.install(try Build.storeOfAnotherModel(in: directory), as: "other-installed.sqlite")
        let wrongModel = try Self.update(other, to: seed2, directory)
        #expect(wrongModel.status == 1 && wrongModel.error.contains("cannot be brought to the model's current version first"), "\(wrongModel.error)")
        #expect(wrongModel.error.components(separatedBy: other).count == 2, "the store's path is said once: \(wrongModel.error)")
        let missing = try Self.update(store, to: directory.path("none.sqlite"), directory)
        #expect(missing.status == 2, "\(missing.error)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: store)) == before)
        // A seed SQLite cannot open: the message names it (it was SQLite's words alone).
        let recorded = try Self.install(seed1, as: "recorded.sqlite", in: directory)
        let recordedBytes = try Data(contentsOf: URL(fileURLWithPath: recorded))
        let garbage = try directory.write("not a store at all", to: "garbage.sqlite")
        let unreadable = try Self.update(recorded, to: garbage, directory)
        // Read and refused for what it holds: exit 1 by the one rule (a file that cannot be read at all is 2).
        #expect(unreadable.status == 1 && unreadable.error.contains("\(garbage): not an SQLite database"), "\(unreadable.error)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: recorded)) == recordedBytes)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path("")).filter { $0.hasSuffix("-journal") }.isEmpty)
    }
}
