import Foundation
import SeedModel
import SeedModelLoader
import SeedgenTestSupport
import Testing
@testable import SeedStore

@Suite("Content digest")
struct ContentDigestTests {
    @Test("an edited row in a store seedgen wrote breaks its content digest: a finding checked as built, a note otherwise")
    func editedRow() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let model = try StoreFixture.model(LibraryModel.entities, in: directory)
        let layout = try StoreLayout(model: model)
        let path = directory.path("store.sqlite")
        try StoreFixture.build(model, at: path) { try LibraryModel.fill($0, order: [1, 2]) }
        #expect(try StoreVerifier(storePath: path, layout: layout).verify().isEmpty)
        try StoreTestSupport.damage(path, "UPDATE ZBOOK SET ZTITLE = 'Forged' WHERE Z_PK = 2")
        let findings = try StoreVerifier(storePath: path, layout: layout, asBuilt: true).verify()
        // The rows digest differently, and the file's bytes no longer match the seal in Z_UUID.
        #expect(findings.map(\.check) == ["content-digest", "seal"] && findings.allSatisfy { !$0.isNote })
        // Not checked as built, the same change is an app's use: notes, the store clean.
        let used = try StoreVerifier(storePath: path, layout: layout).verify()
        #expect(used.map(\.check) == ["content-digest", "seal"] && used.allSatisfy(\.isNote), "\(used)")
    }

    @Test("a dangling join-table row is reported in a store seedgen wrote")
    func danglingJoinRow() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let model = try StoreFixture.model(LibraryModel.entities, in: directory)
        let path = directory.path("store.sqlite")
        try StoreFixture.build(model, at: path) { database in
            try LibraryModel.fill(database, order: [1])
            try database.execute("INSERT INTO Z_1BOOKS (Z_1AUTHORS, Z_2BOOKS) VALUES (1, 42)")
        }
        let findings = try StoreVerifier(storePath: path, layout: try StoreLayout(model: model)).verify()
        #expect(findings.map(\.location) == ["Z_1BOOKS.Z_2BOOKS (Author.books)"])
        #expect(findings.first?.found.contains("(42)") == true)
    }
}
