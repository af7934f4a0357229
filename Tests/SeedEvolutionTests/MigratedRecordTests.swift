import Foundation
import SeedgenTestSupport
import Testing
@testable import SeedEvolution

/// The seed record through migrations that rename and add columns: its digests are kept as
/// they are, with a rule in `SEEDGEN_DIGESTED` saying which columns they cover and which added
/// columns must hold the value the migration gave them; the next update settles them. Built on
/// `ShelfModel` (Book keyed by `--key Book=isbn`); the engines called themselves (`Engines`).
@Suite("The seed record through migrations")
struct MigratedRecordTests {
    static let record = ShelfModel.recordRows

    /// What an update did, a line per object: `+` added, `~` changed, `-` removed, `=` left
    /// (with why), each object as the report names it.
    static func lines(_ report: SeedUpdateReport) -> [String] {
        report.added.map { "+ \($0)" } + report.changed.map { "~ \($0)" } + report.removed.map { "- \($0)" }
            + report.keptChangedByUser.map { "= \($0) changed by the user" } + report.keptDeletedByUser.map { "= \($0) deleted by the user" }
            + report.keptLinked.map { "= \($0) linked" } + report.keptUserObject.map { "= \($0) the user's" } + report.notAddedOwnerDeleted.map { "= \($0) owner deleted" }
    }

    /// Book 3 updated, books 1 and 2 kept as the user changed them.
    static func expectBook3UpdatedOthersKept(_ update: SeedUpdateReport) {
        let lines = Set(Self.lines(update))
        for expected in [#"~ Book[isbn="3"]"#, #"= Book[isbn="1"] changed by the user"#, #"= Book[isbn="2"] changed by the user"#] {
            #expect(lines.contains(expected), "\(expected) in:\n\(lines)")
        }
    }

    @Test("renamed and added columns: the record kept byte for byte, with a rule; an added column the user changed makes the object the user's; the update settles the rule")
    func keptWithARule() throws {
        let directory = try ShelfModel.setUp()
        defer { directory.remove() }
        let (store, bundle) = try ShelfModel.installedStore(in: directory)
        let before = try SQLiteShell.rows(store, Self.record)
        try Engines.migrate(store, bundle: bundle)
        #expect(try SQLiteShell.rows(store, Self.record) == before, "no digest is rewritten")
        #expect(try SQLiteShell.rows(store, "SELECT COLUMN, VALUE FROM SEEDGEN_DIGESTED WHERE POSITION IS NULL") == ["ZPAGES|100"])
        #expect(try SQLiteShell.rows(store, "SELECT COUNT(*) FROM SEEDGEN_DIGESTED WHERE POSITION IS NOT NULL AND COLUMN = 'ZCOST'") == ["1"])
        // After the migration, the user sets book 1's new attribute: book 1 is the user's now.
        try SQLiteShell.execute("UPDATE ZBOOK SET ZPAGES = 7, Z_OPT = Z_OPT + 1 WHERE ZISBN = '1'", on: store)
        let seed2 = try ShelfModel.seed("v2", bundle: bundle, price: "cost", in: directory)
        let update = try Engines.update(store, seed: seed2, bundle: bundle)
        Self.expectBook3UpdatedOthersKept(update)
        #expect(try SQLiteShell.rows(store, "SELECT ZISBN, ZTITLE, ZCOST, ZPAGES FROM ZBOOK ORDER BY ZISBN") == ["1|Café|0.0|7", "2|mine|2.5|100", "3|Three|13.0|100"])
        #expect(try SQLiteShell.rows(store, "SELECT COUNT(*) FROM sqlite_master WHERE name = 'SEEDGEN_DIGESTED'") == ["0"], "settled by the update")
        let again = try Engines.update(store, seed: seed2, bundle: bundle)
        #expect(!again.updated, "\(again)")
        #expect(try Engines.findings(store, model: bundle) == [])
    }

    @Test("v2 → v3 composes the rules (record still kept); v3 → v4 removes a column: digested again through the rule, the user's objects stay the user's")
    func chainedMigrations() throws {
        let directory = try ShelfModel.setUp()
        defer { directory.remove() }
        let (store, bundle) = try ShelfModel.installedStore(in: directory)
        let before = try SQLiteShell.rows(store, Self.record)
        try Engines.migrate(store, bundle: bundle)
        try SQLiteShell.execute("UPDATE ZBOOK SET ZPAGES = 7, Z_OPT = Z_OPT + 1 WHERE ZISBN = '1'", on: store)
        _ = try ClubModels.writeBundle([("Shelf", ShelfModel.model), ("Shelf 2", ShelfModel.v2Model), ("Shelf 3", ShelfModel.v3Model)], current: "Shelf 3", in: directory)
        try Engines.migrate(store, bundle: bundle)
        #expect(try SQLiteShell.rows(store, Self.record) == before, "no digest is rewritten")
        #expect(try SQLiteShell.rows(store, "SELECT COLUMN, VALUE FROM SEEDGEN_DIGESTED WHERE POSITION IS NULL ORDER BY COLUMN") == ["ZPAGES|100", "ZSHELVED|1"])
        _ = try ClubModels.writeBundle([("Shelf", ShelfModel.model), ("Shelf 2", ShelfModel.v2Model), ("Shelf 3", ShelfModel.v3Model), ("Shelf 4", ShelfModel.v4Model)], current: "Shelf 4", in: directory)
        try Engines.migrate(store, bundle: bundle)
        #expect(try SQLiteShell.rows(store, "SELECT COUNT(*) FROM sqlite_master WHERE name = 'SEEDGEN_DIGESTED'") == ["0"])
        let changed = try SQLiteShell.rows(store, Self.record).filter { !before.contains($0) }.count
        #expect(changed == 1, "book 3, left as seeded, digested again; books 1 and 2, the user's, keep their digests")
        let seed4 = try ShelfModel.seed("v4", bundle: bundle, price: "cost", title: "heading", in: directory)
        let update = try Engines.update(store, seed: seed4, bundle: bundle)
        Self.expectBook3UpdatedOthersKept(update)
        #expect(try SQLiteShell.rows(store, "SELECT ZISBN, ZHEADING, ZCOST, ZSHELVED FROM ZBOOK ORDER BY ZISBN") == ["1|Café|0.0|1", "2|mine|2.5|1", "3|Three|13.0|1"])
        #expect(try Engines.findings(store, model: bundle) == [])
    }

    @Test("few of the record's rows move (a removed entity's): they go, the rest stays where it is; the books digested again in place, the user's keeping theirs; the update then finds every book")
    func fewRowsMove() throws {
        let directory = try ShelfModel.setUp()
        defer { directory.remove() }
        let (store, _) = try ShelfModel.installedStore(in: directory)
        let noShelf = ShelfModel.model.replacingOccurrences(of: #"<entity name="Shelf">[\s\S]*?</entity>"#, with: "", options: .regularExpression)
            .replacingOccurrences(of: #"<relationship name="shelf"[^>]*/>"#, with: "", options: .regularExpression)
        #expect(!noShelf.contains("Shelf\"") && !noShelf.contains("\"shelf\""), "DiffCommandTests.model changed: update noShelf")
        let bundle = try ClubModels.writeBundle([("Shelf", ShelfModel.model), ("Shelf 2", noShelf)], current: "Shelf 2", in: directory)
        let before = try SQLiteShell.rows(store, Self.record)
        #expect(Set(before.map { $0.prefix(2) }) == ["1|", "2|", "3|"] && before.filter { $0.hasPrefix("3|") }.count * 2 < before.count)
        try Engines.migrate(store, bundle: bundle)
        let after = try SQLiteShell.rows(store, Self.record)
        #expect(after.filter { $0.hasPrefix("1|") } == before.filter { $0.hasPrefix("1|") }, "Author's rows as they were")
        #expect(!after.contains { $0.hasPrefix("3|") }, "Shelf's rows gone")
        func keys(_ rows: [String]) -> [String] { rows.filter { $0.hasPrefix("2|") }.map { $0.split(separator: "|").prefix(3).joined(separator: "|") } }
        #expect(keys(after) == keys(before), "every book keeps its key")
        #expect(after.filter { $0.hasPrefix("2|") && before.contains($0) }.count == 1, "book 2, retitled by its user, keeps its digest; books 1 and 3 digested again")
        let source = try directory.write(#"{"Authors": [{"name": "Ann"}, {"name": "Bob"}], "Books": [{"isbn": "1", "title": "Caf\u00e9", "price": 0.0, "authors": ["Ann"]}, {"isbn": "2", "title": "a\u0000b", "price": 2.5, "authors": ["Ann", "Bob"]}, {"isbn": "3", "title": "Three", "price": 13}]}"#, to: "v2.json")
        let seed2 = directory.path("v2.sqlite")
        let build = try SeedgenTool.run(["build", "--model", bundle, "--output", seed2, "--quiet", "--key", "Book=isbn", source])
        #expect(build.status == 0, "\(build.error)")
        let update = try Engines.update(store, seed: seed2, bundle: bundle)
        #expect(Set(Self.lines(update)) == [#"~ Book[isbn="3"]"#, #"= Book[isbn="2"] changed by the user"#], "\(update)")
        #expect(try Engines.findings(store, model: bundle) == [])
    }

    @Test("every entity's number changes (Book renamed Aardvark, sorting first: Author and Book swap numbers): the record stays byte for byte, SEEDGEN_RENUMBERED says under which numbers; the build key follows the rename; the update finds every book and puts the record under the store's numbers")
    func renumbered() throws {
        let directory = try ShelfModel.setUp()
        defer { directory.remove() }
        let (store, _) = try ShelfModel.installedStore(in: directory)
        let aardvark = ShelfModel.model.replacingOccurrences(of: #"<entity name="Book">"#, with: #"<entity name="Aardvark" elementID="Book">"#)
            .replacingOccurrences(of: #"Entity="Book""#, with: #"Entity="Aardvark""#)
        let bundle = try ClubModels.writeBundle([("Shelf", ShelfModel.model), ("Shelf 2", aardvark)], current: "Shelf 2", in: directory)
        let before = try SQLiteShell.rows(store, Self.record)
        try Engines.migrate(store, bundle: bundle)
        #expect(try SQLiteShell.rows(store, Self.record) == before, "the books keep their keys (the build's --key Book=isbn is Aardvark's now) and digests")
        #expect(try SQLiteShell.rows(store, "SELECT RECORDED, ENTITY FROM SEEDGEN_RENUMBERED ORDER BY RECORDED") == ["1|2", "2|1", "3|3"])
        let plist = Data(try SQLiteShell.metadataPlist(of: store))
        let metadata = try #require(try PropertyListSerialization.propertyList(from: plist, format: nil) as? [String: Any])
        #expect(metadata["org.seedgen.keys"] as? [String: [String]] == ["Aardvark": ["isbn"]], "the metadata's build keys under the new name")
        let seed2 = try ShelfModel.seed("v2", bundle: bundle, in: directory, options: ["--key", "Aardvark=isbn", "--section", "Books=Aardvark"])
        let update = try Engines.update(store, seed: seed2, bundle: bundle)
        #expect(Self.lines(update) == [#"~ Aardvark[isbn="3"]"#], "book 3 updated; the others as the new seed has them (book 2 the user's): \(update)")
        let keys = "SELECT ENTITY, PK, KEY FROM SEEDGEN_SEEDED ORDER BY ENTITY, PK"
        #expect(try SQLiteShell.rows(store, keys) == SQLiteShell.rows(try directory.install(seed2, as: "v2-installed.sqlite", packed: false), keys), "the record under the store's numbers")
        #expect(try SQLiteShell.rows(store, "SELECT COUNT(*) FROM sqlite_master WHERE name = 'SEEDGEN_RENUMBERED'") == ["0"])
        #expect(try Engines.findings(store, model: bundle) == [])
    }

    @Test("Book renamed Aardvark (sorting first), then its price removed: the books digested again in place, under the number they are recorded under (no longer the entity's), those left as seeded as a fresh build of the new version digests them, book 2 (the user's) as it was; Author's and Shelf's rows as they were")
    func renumberedThenDigestedAgain() throws {
        let directory = try ShelfModel.setUp()
        defer { directory.remove() }
        let (store, _) = try ShelfModel.installedStore(in: directory)
        let price = #"<attribute name="price" optional="YES" attributeType="Double" usesScalarValueType="YES"/>"#
        let aardvark = ShelfModel.model.replacingOccurrences(of: #"<entity name="Book">"#, with: #"<entity name="Aardvark" elementID="Book">"#)
            .replacingOccurrences(of: #"Entity="Book""#, with: #"Entity="Aardvark""#)
        let priceless = aardvark.replacingOccurrences(of: price, with: "")
        #expect(priceless != aardvark, "DiffCommandTests.model changed: update priceless")
        let before = try SQLiteShell.rows(store, Self.record)
        var bundle = ""
        for (index, current) in ["Shelf 2", "Shelf 3"].enumerated() {
            bundle = try ClubModels.writeBundle([("Shelf", ShelfModel.model), ("Shelf 2", aardvark), ("Shelf 3", priceless)].prefix(index + 2).map { $0 }, current: current, in: directory)
            try Engines.migrate(store, bundle: bundle)
        }
        let after = try SQLiteShell.rows(store, Self.record)
        #expect(after.filter { !$0.hasPrefix("2|") } == before.filter { !$0.hasPrefix("2|") }, "Author's and Shelf's rows as they were")
        #expect(try SQLiteShell.rows(store, "SELECT RECORDED, ENTITY FROM SEEDGEN_RENUMBERED ORDER BY RECORDED") == ["1|2", "2|1", "3|3"])
        func books(_ rows: [String], recordedAs number: String) -> [String] { rows.filter { $0.hasPrefix(number + "|") }.map { String($0.dropFirst(2)) } }
        let fresh = directory.path("fresh.sqlite")
        let source = try directory.write(ShelfModel.v1.replacingOccurrences(of: #", "price": [0-9.]+"#, with: "", options: .regularExpression), to: "fresh.json")
        let build = try SeedgenTool.run(["build", "--model", bundle, "--output", fresh, "--quiet", "--key", "Aardvark=isbn", "--section", "Books=Aardvark", source])
        #expect(build.status == 0, "\(build.error)")
        let seeded = books(try SQLiteShell.rows(try directory.install(fresh, as: "fresh-installed.sqlite", packed: false), Self.record), recordedAs: "1")
        let (was, now) = (books(before, recordedAs: "2"), books(after, recordedAs: "2"))
        #expect(seeded.count == 3 && now.count == 3 && was.count == 3)
        #expect(now[1] == was[1], "book 2, retitled by its user, keeps its digest")
        #expect([now[0], now[2]] == [seeded[0], seeded[2]] && now[0] != was[0], "books 1 and 3 digested as the new version's fresh build digests them")
        #expect(try Engines.findings(store, model: bundle) == [])
    }

    @Test("most of the record's rows are written again (Person's nickname removed: every Person named by its values is named again): a fresh record, Club's and Referee's rows in it as they were; Persons left as seeded named and digested as a fresh build does, the user's kept")
    func mostRowsRewritten() throws {
        let people = (1...6).map { #"<Person name="P\#($0)" nickname="n"/>"# }.joined()
        let noNickname = ClubModels.v1.replacingOccurrences(of: #"<attribute name="nickname" optional="YES" attributeType="String"/>"#, with: "")
        #expect(noNickname != ClubModels.v1, "ClubModels.v1 changed: update noNickname")
        let (directory, bundle, store) = try ClubModels.installedStore(data: "<Seed><Club name=\"Linz\">\(people)</Club><Referee name=\"Rex\"/></Seed>", current: noNickname)
        defer { directory.remove() }
        try FullRecord.unpack(at: store)  // the full record's rows, read and compared below
        try SQLiteShell.execute("UPDATE ZPERSON SET ZNAME = 'mine', Z_OPT = Z_OPT + 1 WHERE ZNAME = 'P2'", on: store)
        let before = try SQLiteShell.rows(store, Self.record)
        #expect(before.filter { $0.hasPrefix("2|") }.count == 6 && before.count == 8, "\(before)")
        try Engines.migrate(store, bundle: bundle)
        let after = try SQLiteShell.rows(store, Self.record)
        #expect(after.filter { !$0.hasPrefix("2|") } == before.filter { !$0.hasPrefix("2|") }, "Club's and Referee's rows as they were")
        let mine = before.filter { $0.hasPrefix("2|2|") }
        #expect(after.filter { $0.hasPrefix("2|2|") } == mine, "P2, renamed by its user, keeps its old name and digest")
        let fresh = directory.path("fresh.sqlite")
        let source = try directory.write("<Seed><Club name=\"Linz\">\(people.replacingOccurrences(of: #" nickname="n""#, with: ""))</Club><Referee name=\"Rex\"/></Seed>", to: "fresh.xml")
        #expect(try SeedgenTool.run(["build", "--model", bundle, "--output", fresh, "--quiet", source]).status == 0)
        #expect(after.filter { $0.hasPrefix("2|") && !$0.hasPrefix("2|2|") } == (try SQLiteShell.rows(try directory.install(fresh, as: "fresh-installed.sqlite", packed: false), Self.record)).filter { $0.hasPrefix("2|") && !$0.hasPrefix("2|2|") },
                "the other Persons named and digested as a fresh build of the new version does")
        #expect(try Engines.findings(store, model: bundle) == [])
    }

    /// `ClubModels`' Persons have no key, no uniqueness constraint and no source identifier:
    /// each is named by a digest of its attributes' values (equal Persons numbered ` #2`), so
    /// version 2's rename and added attribute make every Person's name another.
    /// `chained`: then on to version 3 (alias renamed handle), the rule composed, updated there.
    @Test("objects named by their values (equal ones numbered): an added attribute keeps their record as it is, renumbered, with a rule; the update names them again, ordinals kept: those left as seeded from their rows, the user's changed and deleted ones as the new seed names their old values", arguments: [false, true])
    func namedByTheirValues(chained: Bool) throws {
        let people = #"<Person name="Ann" NICK="A"/><Person name="Ann" NICK="A"/><Person name="Cy" NICK="C"/>"#
        func seed(_ club: String, _ nickname: String) -> String {
            "<Seed><\(club) name=\"Linz\">\(people.replacingOccurrences(of: "NICK", with: nickname))</\(club)><Person name=\"Bob\"/><Person name=\"Bob\"/></Seed>"
        }
        let (directory, bundle, store) = try ClubModels.installedStore(data: seed("Club", "nickname"), current: ClubModels.v2)
        defer { directory.remove() }
        try FullRecord.unpack(at: store)  // the full record's rows, read and compared below
        let person = "SELECT PK, KEY, hex(DIGEST) FROM SEEDGEN_SEEDED WHERE ENTITY = ? ORDER BY PK"
        let before = try SQLiteShell.rows(store, person.replacingOccurrences(of: "?", with: "2"))
        #expect(before.count == 5 && before.filter { $0.hasSuffix(" #2") || $0.contains(" #2|") }.count == 2, "\(before)")
        // The user changes Cy and deletes the second Bob.
        try SQLiteShell.execute("UPDATE ZPERSON SET ZNICKNAME = 'mine', Z_OPT = Z_OPT + 1 WHERE ZNAME = 'Cy'", on: store)
        try SQLiteShell.execute("DELETE FROM ZPERSON WHERE Z_PK = (SELECT MAX(Z_PK) FROM ZPERSON WHERE ZNAME = 'Bob')", on: store)
        try Engines.migrate(store, bundle: bundle)
        #expect(try SQLiteShell.rows(store, person.replacingOccurrences(of: "?", with: "2")) == before, "Person keeps its keys and digests")
        #expect(try SQLiteShell.rows(store, "SELECT RECORDED FROM SEEDGEN_RENUMBERED WHERE ENTITY = 1") == ["2"], "Person, now entity 1, recorded under 2")
        #expect(try SQLiteShell.rows(store, "SELECT COLUMN, VALUE FROM SEEDGEN_DIGESTED WHERE ENTITY = 1 AND POSITION IS NULL") == ["ZRATING|3"])
        var (club, nickname, alias) = ("Team", "alias", "ZALIAS")
        if chained {
            _ = try ClubModels.writeBundle([("Club", ClubModels.v1), ("Club 2", ClubModels.v2), ("Club 3", ClubModels.v3)], current: "Club 3", in: directory)
            try Engines.migrate(store, bundle: bundle)
            #expect(try SQLiteShell.rows(store, person.replacingOccurrences(of: "?", with: "2")) == before, "still kept")
            (club, nickname, alias) = ("Side", "handle", "ZHANDLE")
        }
        #expect(try SQLiteShell.rows(store, "SELECT COLUMN, VALUE FROM SEEDGEN_DIGESTED WHERE ENTITY = 1 AND POSITION IS NOT NULL AND VALUE IS NOT NULL ORDER BY VALUE")
                == ["ZNAME|0", "\(alias)|1"], "the old names digest name and nickname, now in ZNAME and \(alias)")
        // A fresh build of the current version from the same objects names each Person by its new values.
        let source = try directory.write(seed(club, nickname), to: "Seed2.xml")
        let seed2 = directory.path("v2.sqlite")
        #expect(try SeedgenTool.run(["build", "--model", bundle, "--output", seed2, "--quiet", source]).status == 0)
        let update = try Engines.update(store, seed: seed2, bundle: bundle)
        // The Persons left as seeded are found as seeded; Cy, whose values the user changed,
        // stays the user's, and the second Bob stays deleted: each is named as the new seed
        // names the object whose old values gave its old name.
        let lines = Self.lines(update).filter { $0.hasPrefix("+ Person") || $0.hasPrefix("- Person") || $0.hasPrefix("= Person") }
        #expect(!lines.contains { $0.hasPrefix("+ ") || $0.hasPrefix("- ") } && lines.contains { $0.hasSuffix("changed by the user") }, "\(update)")
        // The club, digested and named again by each migration (its values change), is found as seeded too.
        #expect(!Self.lines(update).contains { $0.hasPrefix("+ \(club)") || $0.hasPrefix("- \(club)") || $0.hasPrefix("= \(club)") }, "\(update)")
        #expect(try SQLiteShell.rows(store, "SELECT ZNAME, \(alias), ZRATING FROM ZPERSON ORDER BY Z_PK") == ["Ann|A|3", "Ann|A|3", "Cy|mine|3", "Bob||3"])
        let keys = "SELECT KEY FROM SEEDGEN_SEEDED WHERE ENTITY = 1 ORDER BY KEY"
        let (seeded, settled) = (try SQLiteShell.rows(try directory.install(seed2, as: "v2-installed.sqlite", packed: false), keys), try SQLiteShell.rows(store, keys))
        #expect(seeded.count == 5 && seeded.filter { $0.hasSuffix(" #2") }.count == 2 && settled == seeded,
                "each Person has the name the fresh build gives it, ordinal included, the user's too:\n\(settled)\n\(seeded)")
        let again = try Engines.update(store, seed: seed2, bundle: bundle)
        #expect(!again.updated, "\(again)")
        #expect(try Engines.findings(store, model: bundle) == [])
    }

    /// Core Data migrating the store after seedgen did (in an app) leaves seedgen's tables as
    /// they are, the record's model (`SEEDGEN_MODEL`) then another than the store's: the rules
    /// say nothing of the rows, and the objects they covered stay as they are, as the user's.
    @Test("the record written for another model than the store's (migrated since by something else): its rules are dropped, not applied; nothing overwritten")
    func staleRules() throws {
        let directory = try ShelfModel.setUp()
        defer { directory.remove() }
        let (store, bundle) = try ShelfModel.installedStore(in: directory)
        try Engines.migrate(store, bundle: bundle)
        try SQLiteShell.execute("ATTACH '\(directory.path("v1.sqlite"))' AS v1; UPDATE SEEDGEN_MODEL SET MODEL = (SELECT MODEL FROM v1.SEEDGEN_MODEL)", on: store)
        let seed2 = try ShelfModel.seed("v2", bundle: bundle, price: "cost", in: directory)
        let update = try Engines.update(store, seed: seed2, bundle: bundle)
        #expect(Self.lines(update).contains(#"= Book[isbn="3"] changed by the user"#), "\(update)")
        #expect(try SQLiteShell.rows(store, "SELECT ZISBN, ZCOST FROM ZBOOK ORDER BY ZISBN") == ["1|0.0", "2|2.5", "3|3.0"])
        #expect(try SQLiteShell.rows(store, "SELECT COUNT(*) FROM sqlite_master WHERE name = 'SEEDGEN_DIGESTED'") == ["0"])
    }
}
