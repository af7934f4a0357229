import Foundation
import SeedModel
import SeedModelLoader
import SeedgenTestSupport
import Testing
@testable import SeedStore

@Suite("Z_PLIST reader")
struct StoreMetadataTests {
    @Test("every input the metadata fuzz target crashed on decodes or is refused (Foundation's reader crashed on a crafted set)")
    func fuzzRegressions() throws {
        let inputs = try FuzzRegressions.inputs(of: "metadata")
        #expect(!inputs.isEmpty)
        for input in inputs {
            #expect(throws: StoreMetadata.DecodingError.self, "\(input.name)") { try StoreMetadata(decoding: input.bytes) }
        }
    }

    @Test("each corpus store's metadata reads as Foundation reads it: hashes, identifiers, framework version, strings, other keys",
          corpusTrait, arguments: Corpus.allStores)
    func corpusMetadataAsFoundationReadsIt(_ store: Corpus.Store) throws {
        let bytes = try #require(try Database(path: store.store.path, mode: .readOnly, immutable: true).metadataRow()?.plist)
        let metadata = try StoreMetadata(decoding: bytes)
        let plist = try #require(try PropertyListSerialization.propertyList(from: Data(bytes), format: nil) as? [String: Any])
        let hashes = try #require(plist["NSStoreModelVersionHashes"] as? [String: Data])
        #expect(metadata.versionHashes == hashes.mapValues { [UInt8]($0) })
        #expect(metadata.versionIdentifiers == (plist["NSStoreModelVersionIdentifiers"] as? [Any] ?? []).compactMap { $0 as? String })
        #expect(metadata.frameworkVersion == (plist["NSPersistenceFrameworkVersion"] as? NSNumber)?.intValue)
        #expect(metadata.storeType == plist["NSStoreType"] as? String)
        #expect(metadata.autoVacuumLevel == plist["_NSAutoVacuumLevel"] as? String)
        #expect(metadata.hashesDigest == plist["NSStoreModelVersionHashesDigest"] as? String)
        #expect(metadata.checksum == plist["NSStoreModelVersionChecksumKey"] as? String)
        #expect(Set(metadata.otherKeys).isSubset(of: Set(plist.keys)))
        #expect(metadata.versionHashes.count >= 1)
    }

    @Test("a store seedgen writes reads back as written", arguments: [FrameworkEra.newest, FrameworkEra(version: 836)])
    func roundTrip(_ era: FrameworkEra) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let model = try ModelLoader.load(from: try directory.write(CupModel.contents, to: "Cup.xcdatamodel/contents"))
        let path = directory.path("cup.sqlite")
        try StoreFixture.build(model, era: era, at: path)
        let metadata = try StoreMetadata(decoding: try #require(try Database(path: path, mode: .readOnly).metadataRow()?.plist))
        #expect(metadata.frameworkVersion == era.version)
        #expect(metadata.versionHashes == VersionHasher(model: model).entityHashes())
        #expect(metadata.generator == StoreMetadata.generatorName)
        #expect(metadata.seal == StoreMetadata.sealScheme)
        #expect(metadata.contentDigest?.count == 64)
        #expect(metadata.otherKeys.isEmpty)
    }

    /// The marker that a seed record names keyless objects within their owners survives a
    /// rewrite through `encoded()` (the runtime's first write into a store installed as a copy of
    /// an updatable seed, which keeps the seed's seal): it was dropped there.
    @Test("namesWithinOwners and the build keys survive decoding and encoding again")
    func ownerMarkerSurvivesEncoding() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        var metadata = StoreMetadata(model: try ModelLoader.load(from: try directory.write(CupModel.contents, to: "Cup.xcdatamodel/contents")),
                                     frameworkVersion: FrameworkEra.newest.version, contentDigest: String(repeating: "0", count: 64))
        metadata.buildKeys = ["Cup": ["name"]]
        for marked in [false, true] {
            metadata.namesWithinOwners = marked
            let again = try StoreMetadata(decoding: try StoreMetadata(decoding: metadata.encoded()).encoded())
            #expect(again.namesWithinOwners == marked && again.buildKeys == ["Cup": ["name"]])
        }
    }

    @Test("a migration's rewrite keeps every key it does not own, of every kind, as Foundation reads it; sets the new version's hashes")
    func rewriteKeepsOtherKeys() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let model = try ModelLoader.load(from: try directory.write(CupModel.contents, to: "Cup.xcdatamodel/contents"))
        let date = Date(timeIntervalSinceReferenceDate: 123_456.789)
        let original: [String: Any] = [
            "NSStoreModelVersionHashes": ["Old": Data(repeating: 7, count: 32)], "NSStoreModelVersionIdentifiers": ["v1"],
            "NSStoreModelVersionHashesDigest": "old", "NSPersistenceFrameworkVersion": 1341, "NSStoreType": "SQLite",
            "app.user": "Zoë \u{1F600}", "app.when": date, "app.ratio": 0.1, "app.flag": true, "app.big": Int64.max, "app.negative": -3,
            "app.blob": Data([0, 1, 2]), "app.nested": ["list": [1, "two", ["three": false]]],
        ]
        let bytes = [UInt8](try PropertyListSerialization.data(fromPropertyList: original, format: .binary, options: 0))
        let rewritten = try StoreMetadata.rewriting(bytes, for: model, buildKeys: ["Cup": ["name"]])
        let read = try #require(try PropertyListSerialization.propertyList(from: Data(rewritten), format: nil) as? [String: Any])
        let metadata = try StoreMetadata(decoding: rewritten)
        #expect(metadata.versionHashes == VersionHasher(model: model).entityHashes())
        #expect(metadata.versionIdentifiers == [model.versionIdentifier] && metadata.buildKeys == ["Cup": ["name"]])
        #expect(metadata.hashesDigest == VersionHasher.hashesDigest(metadata.versionHashes) && metadata.checksum == nil)
        #expect(read["app.user"] as? String == "Zoë \u{1F600}" && read["app.when"] as? Date == date && read["app.ratio"] as? Double == 0.1)
        #expect(read["app.flag"] as? Bool == true && (read["app.big"] as? NSNumber)?.int64Value == Int64.max && (read["app.negative"] as? NSNumber)?.intValue == -3)
        #expect(read["app.blob"] as? Data == Data([0, 1, 2]) && (read["NSPersistenceFrameworkVersion"] as? NSNumber)?.intValue == 1341)
        let nested = try #require((read["app.nested"] as? [String: Any])?["list"] as? [Any])
        #expect(nested.count == 3 && nested[1] as? String == "two" && (nested[2] as? [String: Any])?["three"] as? Bool == false)
        #expect(Set(read.keys) == Set(original.keys).union(["org.seedgen.keys"]))
    }

    /// Arrays of 16 references to the next, 6 deep: 16^6 objects once expanded, in 200 bytes.
    static func sharedObjectBomb(depth: Int = 6) -> [UInt8] {
        var bytes = Array("bplist00".utf8), offsets: [Int] = []
        for level in 0..<depth {
            offsets.append(bytes.count)
            bytes += [0xAF, 0x10, 16] + [UInt8](repeating: UInt8(level + 1), count: 16)
        }
        offsets.append(bytes.count)
        bytes += [0x10, 1]
        let table = bytes.count
        bytes += offsets.map(UInt8.init)
        bytes += [UInt8](repeating: 0, count: 6) + [1, 1] + [UInt8](repeating: 0, count: 7) + [UInt8(depth + 1)]
            + [UInt8](repeating: 0, count: 8) + [UInt8](repeating: 0, count: 7) + [UInt8(table)]
        return bytes
    }

    @Test("a property list whose shared objects expand without bound is refused, not expanded")
    func sharedObjectsAreCounted() throws {
        #expect {
            try PropertyListValue(decoding: Self.sharedObjectBomb())
        } throws: { error in
            "\(error)".contains("expands to more than 100000 objects")
        }
        // The same shape, small enough, reads whole: 16^3 + 16^2 + 16 + 1 objects.
        guard case .array(let top) = try PropertyListValue(decoding: Self.sharedObjectBomb(depth: 3)) else { Issue.record("not an array"); return }
        #expect(top.count == 16)
    }

    /// A deterministic generator of property-list values (SplitMix64), weighted to the edges.
    struct ValueGenerator {
        var random: SplitMix64
        init(state: UInt64) { random = SplitMix64(seed: state) }
        mutating func next() -> UInt64 { random.next() }
        mutating func pick<T>(_ items: [T]) -> T { items[Int(next() % UInt64(items.count))] }

        mutating func value(depth: Int = 0) -> PropertyListValue {
            switch next() % (depth < 4 ? 8 : 6) {
            case 0:
                let scalars: [Unicode.Scalar] = ["a", "\0", "\u{7F}", "é", "\u{301}", "\u{FFFD}", "\u{10FFFF}", "\u{1F600}", "\"", " "]
                return .string(String(String.UnicodeScalarView((0..<Int(next() % 6)).map { _ in pick(scalars) })))
            case 1: return .integer(pick([0, 1, -1, 255, 256, 65_536, Int64(Int32.max), Int64.min, Int64.max, Int64(bitPattern: next())]))
            case 2: return .real(pick([0.0, -0.0, 0.1, 1.0, 1e20, -1e-300, .leastNonzeroMagnitude, .infinity, -.infinity, Double(bitPattern: next() >> 2)]))
            case 3: return .boolean(next() % 2 == 0)
            case 4: return .date(pick([0, -978_307_200, 123_456.789, 1e12, Double(Int64(bitPattern: next()) >> 20)]))
            case 5: return .data((0..<Int(next() % 5)).map { _ in UInt8(truncatingIfNeeded: next()) })
            case 6: return .array((0..<Int(next() % 4)).map { _ in value(depth: depth + 1) })
            default:
                var entries: [String: PropertyListValue] = [:]
                for index in 0..<Int(next() % 4) { entries["k\(index)\(pick(["", "é", "\u{1F600}"]))"] = value(depth: depth + 1) }
                return .dictionary(entries)
            }
        }
    }

    @Test("round trip: every property list the writer writes reads back whole as the same values (reals bit for bit), 2,000 generated")
    func wholeReadRoundTrips() throws {
        var generator = ValueGenerator(state: 2026_11_25)
        for index in 0..<2_000 {
            let value = generator.value()
            let read = try PropertyListValue(decoding: BinaryPropertyListWriter.encode(value))
            #expect(Self.identical(read, value), "case \(index): \(value) read back as \(read)")
        }
    }

    /// Equal values, reals and dates compared bit for bit (so -0 is not 0).
    static func identical(_ lhs: PropertyListValue, _ rhs: PropertyListValue) -> Bool {
        switch (lhs, rhs) {
        case let (.real(a), .real(b)), let (.date(a), .date(b)): a.bitPattern == b.bitPattern
        case let (.array(a), .array(b)): a.count == b.count && zip(a, b).allSatisfy { identical($0, $1) }
        case let (.dictionary(a), .dictionary(b)): a.count == b.count && a.allSatisfy { key, value in b[key].map { identical(value, $0) } ?? false }
        default: lhs == rhs
        }
    }
}
