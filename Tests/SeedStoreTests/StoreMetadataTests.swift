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
        try StoreTestSupport.build(model, era: era, at: path)
        let metadata = try StoreMetadata(decoding: try #require(try Database(path: path, mode: .readOnly).metadataRow()?.plist))
        #expect(metadata.frameworkVersion == era.version)
        #expect(metadata.versionHashes == VersionHasher(model: model).entityHashes())
        #expect(metadata.generator == StoreMetadata.generatorName)
        #expect(metadata.seal == StoreMetadata.sealScheme)
        #expect(metadata.contentDigest?.count == 64)
        #expect(metadata.otherKeys.isEmpty)
    }
}
