import Foundation
import SeedModel
import SeedModelLoader
import SeedgenTestSupport
import Testing

/// The hashes `shared/corpus/README.md` marks as computable from the model beside each store.
let expectedCorpusHashes: [(store: String, entity: String, hash: String)] = [
    ("surfjournal", "JournalEntry", "Tj6pVjI2H01Wp34HCsdGhqINZK/14EnrYaNBIVLu3wc="),
    ("recipes", "RecipeType", "EtqagX2A7+sQqDbBbEtFZT9iQz2Hsuv8um2Nz6k5YK4="),
    ("coredataplus", "Car", "nlVVKQchWCING6zS+Ao9rUkZ90oyqovp7iKmp7QSbI8="),
    ("coredataplus", "SportCar", "UU7BkHpWgpn5+2hREGUWE28HVfRfpTqCOg5NRAE9UxM="),
    ("coredataplus", "ExpensiveSportCar", "PcfjKxvkW1pMeVrJrz4dEKpyItPGmugFu+tECL3rpIA="),
    ("coredataplus", "Person", "FkJoVRtFEIrnY6orph/zLTLTIyOFCYfD4hYHyNpEtys="),
    ("contentful", "Asset", "vpD7YUlwqHvePA8ShetYaIpJRDF+1LabaCdY+9kUa44="),
    ("contentful", "Author", "IiMdDT7EtT5Z0FIUEB/26GQ4BNnwF141IDOJnXuymvw="),
    ("contentful", "Category", "ulYIqNJzbYoR8HyUVXZ0K/PeoVqM4uqQrZ6oKCm/XaI="),
    ("contentful", "Post", "/FVdB3R99EQLU4RY/wbXjU5bx6Yi9H/HJdc7ngEDtu4="),
    ("contentful", "SyncInfo", "kY6NHObk/W1DaiYGcaGM9/iSeRKeMxmSElSXyThj6H8="),
    ("coredatastack", "Author", "y8H1wnTr9BRHTE41D3OxSx3TVsIngq50iIENWXGIxG0="),
    ("coredatastack", "Book", "KSySPkjCy+6loRO7doX7xjq4AMC7wkKtF6Dy4qHgj1w="),
]

@Suite("Entity version hashes")
struct VersionHashTests {
    @Test("reproduces every computable corpus hash (13 entities in 5 stores)",
          .enabled(if: Corpus.isAvailable, Comment(rawValue: Corpus.skipMessage)))
    func corpusHashes() throws {
        #expect(expectedCorpusHashes.count == 13)
        for store in Corpus.stores {
            let model = try ModelLoader.load(from: store.model.path)
            let hashes = VersionHasher(model: model).entityHashes()
            for expected in expectedCorpusHashes where expected.store == store.name {
                let computed = hashes[expected.entity].map { Data($0).base64EncodedString() }
                #expect(computed == expected.hash, "\(store.name).\(expected.entity)")
            }
        }
    }

    @Test("older revisions of the recipes entities hash differently from the current model",
          .enabled(if: Corpus.isAvailable, Comment(rawValue: Corpus.skipMessage)))
    func recipesRevisionsDiffer() throws {
        let model = try ModelLoader.load(from: Corpus.stores[3].model.path)
        let hashes = VersionHasher(model: model).entityHashes()
        #expect(Data(hashes["Ingredient"]!).base64EncodedString() != "5tCLlA1r9p1UWdOTr3XJ+ZzBr6bxraWAs3Vt9zCAZek=")
    }

    @Test("every hashed element changes the hash; unhashed ones do not")
    func sensitivity() throws {
        func hash(_ attribute: AttributeDescription, entityModifier: String? = nil,
                  abstract: Bool = false, constraints: [[String]] = []) throws -> [UInt8] {
            let entity = EntityDescription(name: "E", isAbstract: abstract, versionHashModifier: entityModifier,
                                           attributes: [attribute], uniquenessConstraints: constraints)
            let model = try DataModel(entities: [entity])
            return VersionHasher(model: model).hash(of: model.entities[0])
        }
        let base = AttributeDescription(name: "a", type: .string)
        let reference = try hash(base)
        var changed: [AttributeDescription] = []
        for mutate in [
            { (a: inout AttributeDescription) in a.isOptional = true },
            { $0.type = .integer32 },
            { $0.versionHashModifier = "v2" },
            { $0.allowsExternalBinaryDataStorage = true },
            { $0.preserveAfterDeletion = true },
            { $0.name = "b" },
        ] as [(inout AttributeDescription) -> Void] {
            var copy = base
            mutate(&copy)
            changed.append(copy)
        }
        for attribute in changed {
            #expect(try hash(attribute) != reference, "\(attribute)")
        }
        #expect(try hash(base, entityModifier: "x") != reference)
        #expect(try hash(base, abstract: true) != reference)
        #expect(try hash(base, constraints: [["a"]]) != reference)
        var unhashed = base
        unhashed.defaultValue = "hello"
        unhashed.isIndexed = true
        unhashed.userInfo = ["dateFormat": "yyyy"]
        #expect(try hash(unhashed) == reference)
    }

    @Test("digest and checksum keys match what Core Data stored",
          .enabled(if: Corpus.isAvailable, Comment(rawValue: Corpus.skipMessage)))
    func digestAndChecksum() throws {
        // contentful (framework 1327) stores both keys; its model reproduces every hash.
        let model = try ModelLoader.load(from: Corpus.stores[0].model.path)
        let hashes = VersionHasher(model: model).entityHashes()
        #expect(VersionHasher.hashesDigest(hashes)
            == "6EfkCVlZYIxr4rqME2NcWHkOzc51ilRSccLKUVgC5sGO8UPQ3W5ap+9rZ5VH8VLoQ/AV38RsdRWyjtYiQ0/zfQ==")
        #expect(VersionHasher.checksum(hashes) == "gW5zQaDo3eKxFNsxHZ1XfyoOL+OIJRPycZs1ji8H648=")
    }
}
