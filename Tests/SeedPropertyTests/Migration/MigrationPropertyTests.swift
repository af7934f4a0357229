import Foundation
import PropertyBased
import SeedDump
import SeedImport
import SeedModel
import SeedModelLoader
import SeedEvolution
import SeedStore
import SeedgenTestSupport
import Testing

/// The migration property: a store of generated objects (`Sample`: every attribute type's edge
/// values, every kind of relationship), migrated to a version that applies one of each of
/// Core Data's inferred rules, holds exactly what each rule gives — value for value, strings
/// byte for byte — and verifies clean against the new version.
///
/// `SEEDGEN_PROPERTY_CASES` sets the number of cases (`make property` runs 3,000).
@Suite("Migration properties")
struct MigrationPropertyTests {
    /// `Sample` renamed `Piece` and `text` renamed `words`, by renaming identifier.
    static let renamed = Sample.model
        .replacingOccurrences(of: "<entity name=\"Sample\">", with: "<entity name=\"Piece\" elementID=\"Sample\">")
        .replacingOccurrences(of: "Entity=\"Sample\"", with: "Entity=\"Piece\"")
        .replacingOccurrences(of: "<attribute name=\"text\" optional=\"YES\" attributeType=\"String\"/>",
                              with: "<attribute name=\"words\" optional=\"YES\" attributeType=\"String\" elementID=\"text\"/>")

    /// The rules of version 2: `Sample` renamed `Piece` and `text` renamed `words` (by renaming
    /// identifier), `dbl` removed, `rank` added with a default, `i16` made required with a
    /// default, `children` made ordered; everything else kept.
    static let version2 = renamed
        .replacingOccurrences(of: "<attribute name=\"dbl\" optional=\"YES\" attributeType=\"Double\"/>",
                              with: "<attribute name=\"rank\" optional=\"YES\" attributeType=\"Integer 32\" defaultValueString=\"7\"/>")
        .replacingOccurrences(of: "<attribute name=\"i16\" optional=\"YES\" attributeType=\"Integer 16\"/>",
                              with: "<attribute name=\"i16\" optional=\"NO\" attributeType=\"Integer 16\" defaultValueString=\"-5\"/>")
        .replacingOccurrences(of: "<relationship name=\"children\" optional=\"YES\" toMany=\"YES\"",
                              with: "<relationship name=\"children\" optional=\"YES\" toMany=\"YES\" ordered=\"YES\"")

    /// Version 2's attributes, in `Sample.attributes`' places (`rank` in `dbl`'s).
    static let attributes2 = Sample.attributes.map(\.name).map { ["text": "words", "dbl": "rank"][$0] ?? $0 }

    /// What version 2 must hold of what version 1 held: each row's values moved by the rules.
    static func migrated(_ contents: RoundTripPropertyTests.Contents) -> RoundTripPropertyTests.Contents {
        var result = contents
        let i16 = Sample.attributes.firstIndex { $0.name == "i16" }!, dbl = Sample.attributes.firstIndex { $0.name == "dbl" }!
        result.rows = contents.rows.mapValues { row in
            var row = row
            if row[i16] == .null { row[i16] = .integer(-5) }
            row[dbl] = .integer(7)
            return row
        }
        return result
    }

    /// The samples without what every format refuses (the round-trip properties prove those
    /// refusals): values no column can hold, objects whose key is no text, links to them.
    static func storable(_ samples: [Sample]) -> [Sample] {
        let kept = samples.filter { $0.name.string != nil }
        let ids = Set(kept.map(\.id))
        return kept.map { sample in
            var sample = sample
            sample.values = sample.values.filter { name, given in
                given.stored(as: Sample.attributes.first { $0.name == name }!.type, attribute: name) != nil
            }
            if let parent = sample.parent, parent.string == nil || !kept.contains(where: { $0.name == parent }) { sample.parent = nil }
            sample.friends = sample.friends.filter(ids.contains)
            sample.members = sample.members.filter(ids.contains)
            return sample
        }
    }

    /// What a version-2 store holds, as `RoundTripPropertyTests.contents` reads version 1, and
    /// each object's children in their stored order.
    static func contents(_ path: String, layout: StoreLayout) throws -> (RoundTripPropertyTests.Contents, children: [[UInt8]: [[UInt8]]]) {
        let reader = try StoreReader(path: path)
        var contents = RoundTripPropertyTests.Contents()
        let columns = attributes2.map { "s.Z\($0.uppercased())" }.joined(separator: ", ")
        try reader.forEachRow("SELECT \(columns), p.ZNAME FROM ZPIECE s LEFT JOIN ZPIECE p ON p.Z_PK = s.ZPARENT") { row in
            guard case .text(let key) = row[0] else { return }
            contents.rows[Array(key.utf8)] = row
        }
        let (join, isFirst) = try #require(layout.joinTableSide(for: "friends", of: "Piece"))
        let (owner, friend) = isFirst ? (join.firstColumn, join.secondColumn) : (join.secondColumn, join.firstColumn)
        try reader.forEachRow("SELECT o.ZNAME, f.ZNAME FROM \(join.name) j JOIN ZPIECE o ON o.Z_PK = j.\(owner) JOIN ZPIECE f ON f.Z_PK = j.\(friend)") { row in
            contents.friends.insert(row.map { Array(($0.text ?? "").utf8) })
        }
        func lists(_ toOne: String) throws -> [[UInt8]: [[UInt8]]] {
            let columns = try #require(layout.toOneColumns(for: toOne, of: "Piece"))
            let position = try #require(columns.order)
            var lists: [[UInt8]: [[UInt8]]] = [:]
            try reader.forEachRow("SELECT o.ZNAME, m.ZNAME FROM ZPIECE m JOIN ZPIECE o ON o.Z_PK = m.\(columns.key) ORDER BY o.Z_PK, m.\(position)") { row in
                lists[Array((row[0].text ?? "").utf8), default: []].append(Array((row[1].text ?? "").utf8))
            }
            return lists
        }
        contents.members = try lists("memberOf")
        return (contents, try lists("parent"))
    }

    @Test("a migrated store holds exactly what each rule gives (renamed, removed, added and filled defaults, newly ordered), and verifies clean")
    func migrationCarriesEveryValue() async throws {
        let modelDirectory = try TemporaryDirectory()
        defer { modelDirectory.remove() }
        let versions = try Self.versions(Self.version2, in: modelDirectory)
        let layout1 = try StoreLayout(model: try #require(versions.versions.first { $0.name == "Sample" }).model)
        let layout2 = try StoreLayout(model: versions.current.model)
        await propertyCheck(count: RoundTripPropertyTests.cases, input: Sample.generator()) { generated in Issue.recordThrown {
            let samples = Self.storable(generated)
            guard !samples.isEmpty, let expected = RoundTripPropertyTests.expectedContents(samples) else { return }
            let directory = try TemporaryDirectory()
            defer { directory.remove() }
            let build = try RoundTripPropertyTests.build(samples, as: .binaryPlist, layout: layout1, in: directory)
            guard case .success = build.result else {
                Issue.record("values every format holds were refused: \(build.result)")
                return
            }
            // Installed: the store records its seed, which the migration carries.
            _ = try SeedRecord.recordInstalledCopy(at: build.path)
            // Newly ordered children take their places in Z_PK order (the assumed rule).
            var children: [[UInt8]: [[UInt8]]] = [:]
            try StoreReader(path: build.path).forEachRow("SELECT p.ZNAME, c.ZNAME FROM ZSAMPLE c JOIN ZSAMPLE p ON p.Z_PK = c.ZPARENT ORDER BY p.Z_PK, c.Z_PK") { row in
                children[Array((row[0].text ?? "").utf8), default: []].append(Array((row[1].text ?? "").utf8))
            }
            let report = try StoreMigrator(storeAt: build.path, versions: versions).migrate()
            #expect(report.migrated && report.rowCounts["Piece"] == samples.count)
            let (found, foundChildren) = try Self.contents(build.path, layout: layout2)
            let difference = RoundTripPropertyTests.difference(found, Self.migrated(expected), columns: Self.attributes2 + ["parent"])
            #expect(difference == nil, "\(difference ?? "")")
            #expect(foundChildren == children, "children out of Z_PK order")
            #expect(try SQLiteShell.rows(build.path, "PRAGMA integrity_check") == ["ok"], "indexes taken over: \(report.indexesTakenOver)")
            let findings = try StoreVerifier(storePath: build.path, layout: layout2).verify().filter { !$0.isNote }
            #expect(findings.isEmpty, "\(findings)")
            // A second migration finds the store current and writes nothing.
            let bytes = try Data(contentsOf: URL(fileURLWithPath: build.path))
            #expect(try !StoreMigrator(storeAt: build.path, versions: versions).migrate().migrated)
            #expect(try Data(contentsOf: URL(fileURLWithPath: build.path)) == bytes)
            try Self.checkRecord(of: build.path, layout: layout2, in: directory)
        } }
    }

    /// Version 3: `Sample` renamed `Piece` and `text` renamed `words`, attributes added (`added`),
    /// an entity `Aardvark` added, which sorts first, so that `Piece` gets entity number 2;
    /// nothing else: every value is carried as it is, so the record is too, under number 1.
    static let version3 = renamed
        .replacingOccurrences(of: "<attribute name=\"dbl\" optional=\"YES\" attributeType=\"Double\"/>",
                              with: "<attribute name=\"dbl\" optional=\"YES\" attributeType=\"Double\"/>" + Self.added)
        .replacingOccurrences(of: "</model>", with: "<entity name=\"Aardvark\"><attribute name=\"size\" optional=\"YES\" attributeType=\"String\"/></entity></model>")

    /// The attributes version 3 adds: a default of each kind of value, and none.
    static let added = """
        <attribute name="rank" optional="YES" attributeType="Integer 32" defaultValueString="7"/>
        <attribute name="since" optional="YES" attributeType="Date" defaultDateTimeInterval="86400"/>
        <attribute name="amount" optional="YES" attributeType="Decimal" defaultValueString="2.50"/>
        <attribute name="ratio" optional="YES" attributeType="Float" defaultValueString="0.1"/>
        <attribute name="label" optional="YES" attributeType="String" defaultValueString="nai\u{308}ve"/>
        <attribute name="seen" optional="YES" attributeType="Boolean" defaultValueString="NO"/>
        <attribute name="note" optional="YES" attributeType="String"/>
        """

    /// The bundle of `Sample.model` and `current` (its current version), in `directory`.
    static func versions(_ current: String, in directory: TemporaryDirectory) throws -> ModelVersions {
        _ = try directory.write(Sample.model, to: "Samples.xcdatamodeld/Sample.xcdatamodel/contents")
        _ = try directory.write(current, to: "Samples.xcdatamodeld/Sample 2.xcdatamodel/contents")
        _ = try directory.write("""
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict><key>_XCCurrentVersionName</key><string>Sample 2.xcdatamodel</string></dict></plist>
            """, to: "Samples.xcdatamodeld/.xccurrentversion")
        return try ModelLoader.loadVersions(from: directory.path("Samples.xcdatamodeld"))
    }

    @Test("renamed, added and renumbered only: the record's digests are kept with a rule, under the entity's old number, and an update to a fresh build of the same objects finds every object as seeded; a packed record stays packed, its bytes as they were", arguments: [false, true])
    func recordKeptWithARule(packed: Bool) async throws {
        let modelDirectory = try TemporaryDirectory()
        defer { modelDirectory.remove() }
        #expect(Self.version3.contains("\"rank\"") && Self.version3.contains("\"Piece\"") && Self.version3.contains("\"Aardvark\""), "Sample.model changed: update version3")
        let versions = try Self.versions(Self.version3, in: modelDirectory)
        let layout1 = try StoreLayout(model: try #require(versions.versions.first { $0.name == "Sample" }).model)
        let layout3 = try StoreLayout(model: versions.current.model)
        await propertyCheck(count: RoundTripPropertyTests.cases, input: Sample.generator()) { generated in Issue.recordThrown {
            let samples = Self.storable(generated)
            guard !samples.isEmpty, RoundTripPropertyTests.expectedContents(samples) != nil else { return }
            let directory = try TemporaryDirectory()
            defer { directory.remove() }
            let build = try RoundTripPropertyTests.build(samples, as: .binaryPlist, layout: layout1, in: directory)
            guard case .success = build.result else {
                Issue.record("values every format holds were refused: \(build.result)")
                return
            }
            // Installed: the store records its seed, which the migration carries.
            _ = try SeedRecord.recordInstalledCopy(at: build.path, packed: packed)
            let record = packed ? "SELECT ENTITY, FIRSTPK, hex(ENTRIES) FROM SEEDGEN_PACKED ORDER BY ENTITY, FIRSTPK"
                                : "SELECT ENTITY, PK, KEY, hex(DIGEST) FROM SEEDGEN_SEEDED ORDER BY ENTITY, PK"
            let before = try SQLiteShell.rows(build.path, record)
            #expect(try StoreMigrator(storeAt: build.path, versions: versions).migrate().migrated)
            #expect(try SQLiteShell.rows(build.path, record) == before, "the record rewritten")
            #expect(try SQLiteShell.rows(build.path, "SELECT RECORDED, ENTITY FROM SEEDGEN_RENUMBERED") == ["1|2"], "Piece, entity 2, recorded under 1")
            let fixed = try SQLiteShell.rows(build.path, "SELECT COLUMN, typeof(VALUE), VALUE FROM SEEDGEN_DIGESTED WHERE POSITION IS NULL ORDER BY COLUMN")
            #expect(fixed == ["ZAMOUNT|real|2.5", "ZLABEL|text|nai\u{308}ve", "ZNOTE|null|", "ZRANK|integer|7", "ZRATIO|real|0.10000000149011612", "ZSEEN|integer|0", "ZSINCE|real|86400.0"], "\(fixed)")
            let findings = try StoreVerifier(storePath: build.path, layout: layout3).verify().filter { !$0.isNote }
            #expect(findings.isEmpty, "\(findings)")
            try Self.checkRecord(of: build.path, layout: layout3, in: directory)
        } }
    }

    /// The migrated store's seed record names and digests every object as a fresh build of
    /// version 2 of the same objects does: updating the store to that build (made from its
    /// dump) finds every object as seeded and changes nothing. Stores holding text XML cannot
    /// carry are left out (the dump refuses them; the round-trip properties prove it).
    static func checkRecord(of store: String, layout: StoreLayout, in directory: TemporaryDirectory) throws {
        guard let fresh = try RoundTripPropertyTests.rebuild(store, layout: layout, format: .plist, in: directory) else { return }
        let report = try SeedUpdater(storeAt: store, seedAt: fresh, layout: layout).update()
        let moved = report.added + report.changed + report.removed + report.keptChangedByUser + report.keptDeletedByUser + report.keptUserObject
        #expect(moved.isEmpty, "the record after the migration: \(moved.prefix(5))")
    }
}
