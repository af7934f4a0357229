import Foundation
import PropertyBased
import SeedDump
import SeedImport
import SeedModel
import SeedModelLoader
import SeedStore
import SeedgenTestSupport
import Testing

/// Round-trip properties (PropertyBased, x-sheep/swift-property-based): generated objects with
/// every type's edge values and every kind of relationship, written in each source format, either fail to build with an error
/// naming `file:line:column`, or build a store holding exactly the values given; the formats
/// that build give the same bytes; a dump of the store (XML and plist) builds the same values again.
///
/// `SEEDGEN_PROPERTY_CASES` sets the number of cases (`make property` runs 3,000).
@Suite("Round-trip properties")
struct RoundTripPropertyTests {
    static let cases = PropertyCases.count(makeTest: 150)

    /// One build: the store's path, or the error.
    struct Build {
        var path: String
        var result: Result<Void, InputError>
    }

    static func build(_ samples: [Sample], as format: SampleFormat, layout: StoreLayout, in directory: TemporaryDirectory) throws -> Build {
        let input = directory.path(format.fileName)
        try Data(format.write(samples)).write(to: URL(fileURLWithPath: input))
        let output = directory.path("\(format.rawValue).sqlite")
        let builder = try StoreBuilder(layout: layout, outputPath: output)
        let importer = SeedImporter(builder: builder)
        do {
            try importer.importFile(input)
            try importer.finish()
            _ = try builder.finish()
            return Build(path: output, result: .success(()))
        } catch let error as InputError {
            return Build(path: input, result: .failure(error))
        }
    }

    /// What a store holds of the samples, by key bytes: each row's attribute columns and its
    /// parent's key, the many-to-many's pairs, and each ordered list's members in order.
    struct Contents: Equatable {
        var rows: [[UInt8]: [SQLValue]] = [:]
        var friends: Set<[[UInt8]]> = []
        var members: [[UInt8]: [[UInt8]]] = [:]
    }

    static func contents(_ path: String, layout: StoreLayout) throws -> Contents {
        let reader = try StoreReader(path: path)
        var contents = Contents()
        let columns = Sample.attributes.map { "s.Z\($0.name.uppercased())" }.joined(separator: ", ")
        try reader.forEachRow("SELECT \(columns), p.ZNAME FROM ZSAMPLE s LEFT JOIN ZSAMPLE p ON p.Z_PK = s.ZPARENT") { row in
            guard case .text(let key) = row[0] else { return }
            contents.rows[Array(key.utf8)] = row
        }
        let (join, isFirst) = try #require(layout.joinTableSide(for: "friends", of: "Sample"))
        let (owner, friend) = isFirst ? (join.firstColumn, join.secondColumn) : (join.secondColumn, join.firstColumn)
        try reader.forEachRow("SELECT o.ZNAME, f.ZNAME FROM \(join.name) j JOIN ZSAMPLE o ON o.Z_PK = j.\(owner) JOIN ZSAMPLE f ON f.Z_PK = j.\(friend)") { row in
            contents.friends.insert(row.map { Array(($0.text ?? "").utf8) })
        }
        let position = try #require(layout.table(named: "ZSAMPLE")?.columns.first { $0.name.hasPrefix("Z_FOK_") }?.name)
        try reader.forEachRow("SELECT o.ZNAME, m.ZNAME FROM ZSAMPLE m JOIN ZSAMPLE o ON o.Z_PK = m.ZMEMBEROF ORDER BY o.Z_PK, m.\(position)") { row in
            contents.members[Array((row[0].text ?? "").utf8), default: []].append(Array((row[1].text ?? "").utf8))
        }
        return contents
    }

    /// What `samples` must store; nil when some value must be refused everywhere.
    static func expectedContents(_ samples: [Sample]) -> Contents? {
        var contents = Contents()
        var keys: [String: [UInt8]] = [:]
        for sample in samples {
            guard let key = sample.name.string else { return nil }
            keys[sample.id] = Array(key.utf8)
            var row: [SQLValue] = []
            for attribute in Sample.attributes {
                guard let given = attribute.name == "name" ? .text(sample.name) : sample.values[attribute.name] else {
                    row.append(.null)
                    continue
                }
                guard let stored = given.stored(as: attribute.type, attribute: attribute.name) else { return nil }
                row.append(stored)
            }
            row.append(sample.parent.flatMap(\.string).map { .text($0) } ?? .null)
            contents.rows[Array(key.utf8)] = row
        }
        for sample in samples {
            let key = keys[sample.id]!
            for friend in sample.friends { contents.friends.insert([key, keys[friend]!]) }
            if !sample.members.isEmpty { contents.members[key] = sample.members.map { keys[$0]! } }
        }
        return contents
    }

    /// The first difference between what a store holds and what is expected; nil when they agree.
    static func difference(_ found: Contents, _ expected: Contents, columns: [String] = Sample.attributes.map(\.name) + ["parent"]) -> String? {
        func shown(_ key: [UInt8]) -> String { String(decoding: key, as: UTF8.self).debugDescription }
        guard found.rows.count == expected.rows.count else { return "\(found.rows.count) rows, not \(expected.rows.count)" }
        for (key, row) in expected.rows {
            guard let other = found.rows[key] else { return "no row keyed \(shown(key))" }
            for (index, value) in row.enumerated() where !value.sameStored(as: other[index]) {
                return "\(shown(key)).\(columns[index]): stored \(other[index].debugText), given \(value.debugText)"
            }
        }
        if found.friends != expected.friends {
            return "friends: stored \(found.friends.map { $0.map(shown) }), given \(expected.friends.map { $0.map(shown) })"
        }
        if found.members != expected.members {
            return "members: stored \(found.members.map { (shown($0), $1.map(shown)) }), given \(expected.members.map { (shown($0), $1.map(shown)) })"
        }
        return nil
    }

    @Test("every format builds exactly the values given, or fails naming file:line:column; the formats agree byte for byte")
    func formatsRoundTrip() async throws {
        let modelDirectory = try TemporaryDirectory()
        defer { modelDirectory.remove() }
        let layout = try StoreLayout(model: try ModelLoader.load(from: try modelDirectory.write(Sample.model, to: "Sample.xcdatamodel/contents")))
        await propertyCheck(count: Self.cases, input: Sample.generator()) { samples in Issue.recordThrown {
            let directory = try TemporaryDirectory()
            defer { directory.remove() }
            let expected = Self.expectedContents(samples)
            let outsideXML = samples.contains { sample in sample.orderedValues.contains { $0.value.outsideXML } || sample.parent?.outsideXML == true }
            var stores: [(SampleFormat, [UInt8])] = []
            for format in SampleFormat.allCases {
                let build = try Self.build(samples, as: format, layout: layout, in: directory)
                let mustBuild = expected != nil && !(format.isXML && outsideXML)
                switch build.result {
                case .failure(let error):
                    #expect(!mustBuild, "\(format) refused values it can hold: \(error)")
                    #expect(error.location.file == build.path && error.location.line >= 1 && error.location.column >= 1,
                            "\(format): the error does not name the input's line and column: \(error)")
                case .success:
                    #expect(mustBuild, "\(format) built values it must refuse")
                    if let expected {
                        let found = try Self.contents(build.path, layout: layout)
                        let difference = Self.difference(found, expected)
                        #expect(difference == nil, "\(format): \(difference ?? "")")
                    }
                    stores.append((format, try Array(Data(contentsOf: URL(fileURLWithPath: build.path)))))
                }
            }
            for (format, bytes) in stores.dropFirst() {
                #expect(bytes == stores[0].1, "\(format) built other bytes than \(stores[0].0)")
            }
            if let expected, let built = stores.first {
                try Self.checkDumps(of: directory.path("\(built.0.rawValue).sqlite"), expected, layout: layout, in: directory)
            }
        } }
    }

    /// A store's dump in each format builds the same values again (an entity-XML dump the same
    /// bytes); a store holding what XML cannot carry is refused by the dump with the reason.
    static func checkDumps(of store: String, _ expected: Contents, layout: StoreLayout, in directory: TemporaryDirectory) throws {
        for format in StoreDumper.Format.allCases {
            for dates in StoreDumper.DateStyle.allCases {
                try checkDump(of: store, expected, layout: layout, format: format, dates: dates, in: directory)
            }
        }
    }

    /// One dump of `store`, in `format` with `dates`, rebuilt.
    static func checkDump(of store: String, _ expected: Contents, layout: StoreLayout, format: StoreDumper.Format, dates: StoreDumper.DateStyle,
                          in directory: TemporaryDirectory) throws {
        guard let rebuilt = try rebuild(store, layout: layout, format: format, dates: dates, in: directory) else { return }
        let difference = Self.difference(try Self.contents(rebuilt, layout: layout), expected)
        #expect(difference == nil, "dump (\(format), dates \(dates)) rebuilt: \(difference ?? "")")
        if format == .xml {
            #expect(try Data(contentsOf: URL(fileURLWithPath: rebuilt)) == Data(contentsOf: URL(fileURLWithPath: store)), "the XML dump (dates \(dates)) rebuilt other bytes")
        }
    }
}

extension RoundTripPropertyTests {
    /// `store` dumped in `format` with `dates` and built again with `layout`, in `directory`;
    /// nil when the dump refuses the store because it holds text XML cannot carry (the
    /// round-trip properties expect that refusal, and no other).
    static func rebuild(_ store: String, layout: StoreLayout, format: StoreDumper.Format, dates: StoreDumper.DateStyle = .iso8601,
                        in directory: TemporaryDirectory) throws -> String? {
        let dumpPath = directory.path("dump-\(format.rawValue).\(format == .xml ? "xml" : "plist")")
        _ = FileManager.default.createFile(atPath: dumpPath, contents: nil)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: dumpPath))
        var dumper = StoreDumper(storePath: store, layout: layout)
        dumper.dates = dates
        do {
            try dumper.dump(to: handle, format: format)
            try handle.close()
        } catch let error as StoreDumper.DumpError {
            try handle.close()
            #expect(error.description.contains("XML cannot carry"), "dump (\(format)) failed: \(error)")
            return nil
        }
        let rebuilt = directory.path("rebuilt-\(format.rawValue).sqlite")
        let builder = try StoreBuilder(layout: layout, outputPath: rebuilt)
        let importer = SeedImporter(builder: builder)
        try importer.importFile(dumpPath)
        try importer.finish()
        _ = try builder.finish()
        return rebuilt
    }
}

extension SQLValue {
    /// The value with its text escaped and its real's bits shown.
    var debugText: String {
        switch self {
        case .text(let text): text.count > 80 ? "\(text.prefix(80).debugDescription)…(\(text.utf8.count) bytes)" : text.debugDescription
        case .real(let value): "\(value) (0x\(String(value.bitPattern, radix: 16)))"
        case .blob(let bytes): "blob \(bytes.prefix(20).map { String($0, radix: 16) }.joined(separator: " "))\(bytes.count > 20 ? "…" : "")"
        default: description
        }
    }
}
