import Foundation
import SeedStore
import SeedgenTestSupport
import Testing

/// `dump`, `fetch` and `verify` on stores whose rows were changed behind Core Data's back:
/// nothing in a store is trusted; a value that would not read back as the model's type is
/// refused by `dump` and `fetch` (exit 1, the column and the first row named) and reported by
/// `verify` (`stored-value`), never printed or dumped as if it were right, and nothing crashes.
@Suite("Commands that read a store trust nothing in it")
struct StoreTrustTests {
    static let model = """
        <?xml version="1.0"?>
        <model><entity name="Item"><attribute name="name" attributeType="String"/><attribute name="n" optional="YES" attributeType="Integer 32"/>
        <attribute name="when" optional="YES" attributeType="Date"/><attribute name="id" optional="YES" attributeType="UUID"/>
        <relationship name="parent" optional="YES" maxCount="1" destinationEntity="Item" inverseName="kids" inverseEntity="Item"/>
        <relationship name="kids" optional="YES" toMany="YES" destinationEntity="Item" inverseName="parent" inverseEntity="Item"/>
        <uniquenessConstraints><uniquenessConstraint><constraint value="name"/></uniquenessConstraint></uniquenessConstraints></entity></model>
        """

    @Test("a value of the wrong storage class or range, a Z_PK that is not a positive integer, a view for a table: refused, reported, no crash",
          arguments: [
            ("UPDATE ZITEM SET ZNAME = x'00ff' WHERE Z_PK = 1", "ZITEM.ZNAME (Item.name): expected String values (text)"),
            ("UPDATE ZITEM SET ZN = 'text' WHERE Z_PK = 1", "ZITEM.ZN (Item.n): expected Integer 32 values"),
            ("UPDATE ZITEM SET ZN = 4000000000 WHERE Z_PK = 1", "found 1 row(s), the first Z_PK 1: 4000000000 (integer)"),
            ("UPDATE ZITEM SET ZWHEN = 'soon' WHERE Z_PK = 2", "ZITEM.ZWHEN (Item.when): expected Date values (numbers), found 1 row(s), the first Z_PK 2"),
            ("UPDATE ZITEM SET ZID = x'0011' WHERE Z_PK = 1", "ZITEM.ZID (Item.id): expected UUID values (16-byte blobs)"),
            ("UPDATE ZITEM SET ZPARENT = 'abc' WHERE Z_PK = 1", "ZITEM.ZPARENT (Item.parent): expected integers"),
            ("UPDATE ZITEM SET Z_PK = -5 WHERE Z_PK = 1", "ZITEM.Z_PK: expected positive integers"),
            ("UPDATE ZITEM SET ZNAME = 'a' || char(27) || '[2J' WHERE Z_PK = 1; UPDATE ZITEM SET ZN = 'x' WHERE Z_PK = 2", #"the first Z_PK 2: "x" (text)"#),
          ])
    func changedValues(change: String, message: String) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let model = try directory.write(Self.model, to: "Items.xcdatamodel/contents")
        let json = try directory.write(#"{"Items": [{"name": "a", "n": 1, "id": "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"}, {"name": "b", "parent": "a"}]}"#, to: "Items.json")
        let store = directory.path("Items.sqlite")
        #expect(try SeedgenTool.run(["build", "--model", model, "--output", store, "--quiet", json]).status == 0)
        try SQLiteShell.execute(change, on: store)
        for command in [["dump", store, "--model", model], ["fetch", store, "--model", model, "--entity", "Item"]] {
            let result = try SeedgenTool.run(command)
            #expect(result.status == 1 && result.error.contains(message), "\(command[0]): \(result.status) \(result.error)")
            #expect(result.output.isEmpty || command[0] == "fetch" && !result.output.contains("Item #"), "\(command[0]) printed \(result.output.prefix(200))")
            #expect(!result.error.contains("\u{1b}"), "a store's text reached the terminal unescaped")
        }
        let verified = try SeedgenTool.run(["verify", store, "--model", model])
        #expect(verified.status == 1 && verified.output.contains("stored-value: ") && verified.output.contains(message), "\(verified.output)")
    }

    /// Found by the `verify` fuzz target (2026-11-25, 81,160 executions in): a row whose `Z_ENT`
    /// names an entity of another table was dumped with that entity's columns (index out of
    /// range, a crash).
    @Test("a row whose Z_ENT is another table's entity: dump, fetch and diff refuse it (exit 1 or 2, named), no crash")
    func entityOfAnotherTable() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let model = Corpus.packageRoot.appendingPathComponent("Seeds/EMPlan/EMPlan.xcdatamodeld").path
        let store = directory.path("EMPlan.sqlite")
        let build = try SeedgenTool.run(["build", "--model", model, "--output", store, "--quiet",
                                         Corpus.packageRoot.appendingPathComponent("Seeds/EMPlan/setup.plist").path])
        #expect(build.status == 0, "\(build.error)")
        let seed = try directory.copy(URL(fileURLWithPath: store), as: "seed.sqlite")
        try SQLiteShell.execute("UPDATE ZHUMAN SET Z_ENT = (SELECT Z_ENT FROM Z_PRIMARYKEY WHERE Z_NAME = 'Match') WHERE Z_PK = 1", on: store)
        let message = "ZHUMAN row 1 has Z_ENT 5, not an entity stored in ZHUMAN"
        for command in [["dump", store, "--model", model], ["dump", store, "--model", model, "--format", "plist"],
                        ["fetch", store, "--model", model, "--entity", "Player"], ["diff", seed, store, "--model", model]] {
            let result = try SeedgenTool.run(command)
            #expect((result.status == 1 || result.status == 2) && result.error.contains(message), "\(command[0]): \(result.status) \(result.error.prefix(300))")
        }
        let verified = try SeedgenTool.run(["verify", store, "--model", model])
        #expect(verified.status == 1, "\(verified.output)")
    }

    @Test("a Z_PK of Int64.max or a table replaced by a view: dump refuses without a crash")
    func extremeRows() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let model = try directory.write(Self.model, to: "Items.xcdatamodel/contents")
        let json = try directory.write(#"{"Items": [{"name": "a"}, {"name": "b"}]}"#, to: "Items.json")
        for (change, message) in [("UPDATE ZITEM SET Z_PK = 9223372036854775807 WHERE Z_PK = 1", "ZITEM has a row with Z_PK 9223372036854775807"),
                                  ("ALTER TABLE ZITEM RENAME TO ZOLD; CREATE VIEW ZITEM AS SELECT * FROM ZOLD", "ZITEM is a view, not a table")] {
            let store = directory.path("Items.sqlite")
            try? FileManager.default.removeItem(atPath: store)
            #expect(try SeedgenTool.run(["build", "--model", model, "--output", store, "--quiet", json]).status == 0)
            try SQLiteShell.execute(change, on: store)
            let result = try SeedgenTool.run(["dump", store, "--model", model])
            #expect(result.status == 1 && result.error.contains(message), "\(result.status) \(result.error.prefix(300))")
        }
    }

    @Test("names in a store's metadata reach inspect's and verify's output escaped, one line each")
    func metadataTextEscaped() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let model = try directory.write(Self.model, to: "Items.xcdatamodel/contents")
        let store = directory.path("Items.sqlite")
        #expect(try SeedgenTool.run(["build", "--model", model, "--output", store, "--quiet"]).status == 0)
        var stored: [UInt8] = []
        try StoreReader(path: store).forEachRow("SELECT Z_PLIST FROM Z_METADATA") { row in stored = row[0].blob ?? [] }
        var metadata = try #require(try PropertyListSerialization.propertyList(from: Data(stored), format: nil) as? [String: Any])
        metadata["NSStoreModelVersionIdentifiers"] = ["v1\u{1b}[2J\nverify: clean"]
        var hashes = try #require(metadata["NSStoreModelVersionHashes"] as? [String: Any])
        hashes["Ghost\u{1b}]0;title\u{7}"] = Data(repeating: 1, count: 32)
        metadata["NSStoreModelVersionHashes"] = hashes
        let changed = try PropertyListSerialization.data(fromPropertyList: metadata, format: .binary, options: 0)
        try SQLiteShell.execute("UPDATE Z_METADATA SET Z_PLIST = X'\(changed.map { String(format: "%02x", $0) }.joined())'", on: store)
        for command in [["inspect", store], ["verify", store, "--model", model]] {
            let result = try SeedgenTool.run(command)
            #expect(!result.output.contains("\u{1b}") && !result.output.contains("\u{7}"), "\(command[0]): \(result.output)")
            #expect(result.output.contains(#"\u{1b}"#), "\(command[0]) does not show the escape: \(result.output)")
            #expect(!result.output.split(separator: "\n").contains { $0.hasPrefix("verify: clean") }, "\(command[0]): \(result.output)")
        }
    }
}
