import Foundation
import SeedModel
import SeedModelLoader
import SeedgenTestSupport
import Testing
@testable import SeedStore

@Suite("Seal and row bookkeeping")
struct SealTests {
    /// The library store of the builder tests, built into `directory`.
    static func libraryStore(in directory: TemporaryDirectory) throws -> (model: DataModel, path: String) {
        let model = try StoreFixture.model(LibraryModel.entities, in: directory)
        let path = directory.path("store.sqlite")
        try StoreFixture.build(model, at: path) { try LibraryModel.fill($0, order: [1, 2]) }
        return (model, path)
    }

    /// Whether the seal of the store at `path` is broken once the byte at `offset` of `original`
    /// is changed (`mask` flips its bits) and written there.
    static func sealBreaks(flipping offset: Int, of original: Data, at path: String, mask: UInt8 = 0xFF) throws -> Bool {
        var bytes = original
        bytes[offset] ^= mask
        try bytes.write(to: URL(fileURLWithPath: path))
        if case .broken = try StoreSeal.check(path: path) { return true }
        return false
    }

    @Test("a changed byte anywhere breaks the seal; the seal of an untouched store holds")
    func sealCatchesAByteTheDigestCannotSee() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let (model, path) = try Self.libraryStore(in: directory)
        #expect(try StoreSeal.check(path: path) == .intact)
        // A reserved byte of the SQLite header: no row changes, so only the seal can notice.
        #expect(try Self.sealBreaks(flipping: 80, of: Data(contentsOf: URL(fileURLWithPath: path)), at: path))
        let findings = try StoreVerifier(storePath: path, layout: try StoreLayout(model: model), asBuilt: true).verify()
        #expect(findings.map(\.check) == ["seal"])
    }

    @Test("the pieces seal covers every 4 MiB piece, the last short one too: a byte changed in any piece breaks it")
    func piecesSeal() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let model = try StoreFixture.model("<entity name=\"Blob\"><attribute name=\"data\" optional=\"YES\" attributeType=\"Binary\"/></entity>", in: directory)
        let path = directory.path("store.sqlite")
        try StoreFixture.build(model, at: path) { database in
            // About 9 MiB of rows: three pieces.
            let insert = try database.prepare("INSERT INTO ZBLOB (Z_PK, Z_ENT, Z_OPT, ZDATA) VALUES (?, 1, 1, randomblob(100000))")
            for key in 1...95 { try insert.bind([.integer(Int64(key))]); try insert.run() }
        }
        let original = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(original.count > 2 * StoreSeal.pieceSize && original.count < 3 * StoreSeal.pieceSize)
        #expect(try StoreSeal.check(path: path) == .intact)
        for offset in [StoreSeal.pieceSize - 1, StoreSeal.pieceSize, original.count - 1] {
            #expect(try Self.sealBreaks(flipping: offset, of: original, at: path, mask: 0x01), "a byte changed at \(offset)")
        }
    }

    @Test("a seed sealed with the whole-file scheme of earlier versions still checks: intact, and broken by a changed byte")
    func wholeFileSealStillChecks() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let (model, path) = try Self.libraryStore(in: directory)
        // Reseal as version 1 would have: placeholder, the scheme's name, then the whole-file seal.
        var metadata = try StoreMetadata(decoding: try #require(try Database(path: path, mode: .readOnly).metadataRow()?.plist))
        metadata.seal = StoreSeal.wholeFileScheme
        let placeholder = String(decoding: StoreSeal.placeholder, as: UTF8.self)
        try Database(path: path, mode: .readWrite).run("UPDATE Z_METADATA SET Z_UUID = ?, Z_PLIST = ?", [.text(placeholder), .blob(metadata.encoded())])
        try StoreSeal.seal(path: path, scheme: StoreSeal.wholeFileScheme)
        #expect(try StoreSeal.check(path: path) == .intact)
        #expect(try StoreVerifier(storePath: path, layout: try StoreLayout(model: model)).verify().isEmpty)
        #expect(try Self.sealBreaks(flipping: 80, of: Data(contentsOf: URL(fileURLWithPath: path)), at: path))
    }

    @Test("Z_OPT below 1 and a one-to-one whose partner points elsewhere are reported")
    func rowVersionsAndOneToOneInverses() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let model = try StoreFixture.model("""
            <entity name="Person" syncable="YES">
                <attribute name="name" optional="YES" attributeType="String"/>
                <relationship name="desk" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Desk" inverseName="owner" inverseEntity="Desk"/>
            </entity>
            <entity name="Desk" syncable="YES">
                <relationship name="owner" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Person" inverseName="desk" inverseEntity="Person"/>
            </entity>
            """, in: directory)
        let layout = try StoreLayout(model: model)
        let path = directory.path("store.sqlite")
        try StoreFixture.build(model, at: path) { database in
            try database.execute("""
                INSERT INTO ZPERSON (Z_PK, Z_ENT, Z_OPT, ZDESK) VALUES (1, 2, 1, 1), (2, 2, 1, NULL);
                INSERT INTO ZDESK (Z_PK, Z_ENT, Z_OPT, ZOWNER) VALUES (1, 1, 1, 1);
                """)
        }
        #expect(try StoreVerifier(storePath: path, layout: layout).verify().isEmpty)
        try StoreTestSupport.damage(path, "UPDATE ZDESK SET ZOWNER = 2; UPDATE ZPERSON SET Z_OPT = 0 WHERE Z_PK = 2")
        let checks = try StoreVerifier(storePath: path, layout: layout).verify().map(\.check)
        #expect(checks.contains("inverse"))
        #expect(checks.contains("row-version"))
    }
}
