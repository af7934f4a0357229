import Foundation
import SeedModel
import SeedStore
import SeedSwiftDataLoader
import SeedgenTestSupport
import Testing

@Suite("SwiftData's real stores", .enabled(if: SwiftDataCorpus.isAvailable, Comment(rawValue: SwiftDataCorpus.skipMessage)))
struct SwiftDataCorpusTests {
    /// The app's store, copied with its WAL into `directory`.
    private func copyStore(_ app: SwiftDataCorpus.App, into directory: TemporaryDirectory) throws -> String {
        for file in app.storeFiles { _ = try directory.copy(file) }
        return directory.path("default.store")
    }

    @Test("every entity hash made from the app's sources is the one its store holds", arguments: SwiftDataCorpus.apps)
    func hashesAreTheStores(app: SwiftDataCorpus.App) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = try copyStore(app, into: directory)
        let model = try SwiftDataModelLoader.load(from: app.sources.path, schema: app.schema)
        #expect(model.entities.map(\.name) == app.schema)
        #expect(model.versionIdentifier == "1.0.0")
        let stored = try StoreMetadata(decoding: SQLiteShell.metadataPlist(of: store))
        #expect(stored.versionHashes.count == app.schema.count)
        #expect(VersionHasher(model: model).entityHashes() == stored.versionHashes)
        #expect(stored.versionIdentifiers == [model.versionIdentifier])
    }

    @Test("ResourcesManager's store verifies clean against its sources, its persistent history included")
    func storeVerifiesClean() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let app = SwiftDataCorpus.resourcesManager
        let store = try copyStore(app, into: directory)
        let layout = try StoreLayout(model: SwiftDataModelLoader.load(from: app.sources.path))
        let findings = try StoreVerifier(storePath: store, layout: layout).verify()
        #expect(findings.filter { !$0.isNote }.isEmpty, "\(findings)")
        #expect(try SQLiteShell.rows(store, "SELECT count(*) FROM ACHANGE") != ["0"], "the history is there to be accepted")
    }

    @Test("a changed persistent-history table is a finding")
    func foreignHistoryIsAFinding() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let app = SwiftDataCorpus.resourcesManager
        let store = try copyStore(app, into: directory)
        try SQLiteShell.execute("ALTER TABLE ATRANSACTIONSTRING ADD COLUMN ZEXTRA VARCHAR", on: store)
        let layout = try StoreLayout(model: SwiftDataModelLoader.load(from: app.sources.path))
        let findings = try StoreVerifier(storePath: store, layout: layout).verify().filter { !$0.isNote }
        #expect(findings.map(\.location) == ["table ATRANSACTIONSTRING"])
    }

    @Test("a dump of ResourcesManager's store builds back into the same objects")
    func dumpBuildsBack() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let app = SwiftDataCorpus.resourcesManager
        let store = try copyStore(app, into: directory)
        let dump = try SeedgenTool.run(["dump", store, "--model", app.sources.path, "-o", directory.path("dump.xml")])
        #expect(dump.status == 0, "\(dump.error)")
        let build = try SeedgenTool.run(["build", "--model", app.sources.path, "--output", directory.path("seed.sqlite"), directory.path("dump.xml")])
        #expect(build.status == 0, "\(build.error)")
        let diff = try SeedgenTool.run(["diff", store, directory.path("seed.sqlite"), "--model", app.sources.path])
        #expect(diff.status == 0, "\(diff.output)\(diff.error)")
        #expect(diff.output.contains("the stores hold the same objects (16)"))
        let verify = try SeedgenTool.run(["verify", "--as-built", directory.path("seed.sqlite"), "--model", app.sources.path])
        #expect(verify.status == 0, "\(verify.output)")
    }

    @Test("MetaCocktails' composites are read as the store's own model holds them")
    func compositesAsStored() throws {
        let model = try SwiftDataModelLoader.load(from: SwiftDataCorpus.metaCocktails.sources.path, schema: SwiftDataCorpus.metaCocktails.schema)
        let cocktail = try #require(model.entity(named: "Cocktail"))
        func elements(_ attribute: String, of entity: EntityDescription) -> [String] {
            (entity.attribute(named: attribute)?.elements ?? []).map { "\($0.name):\($0.type.rawValue)\($0.isOptional ? "?" : "")" }
        }
        // A raw-value enum: one element named like the property, optional even when the property is not.
        #expect(elements("glasswareType", of: cocktail) == ["glasswareType:String?"])
        #expect(cocktail.attribute(named: "glasswareType")?.isOptional == false)
        #expect(elements("collection", of: cocktail) == ["collection:Integer 64?"])
        // A struct: its properties in declaration order; arrays as Binary (JSON).
        #expect(elements("compiledTags", of: cocktail) == ["flavors:Binary?", "profiles:Binary?", "styles:Binary?", "booze:Binary?", "nA:Binary?"])
        #expect(elements("buildOrder", of: cocktail) == ["instructions:Binary?"])
        let image = try #require(model.entity(named: "CocktailImage"))
        #expect(elements("backgroundColor", of: image) == ["linearRed:Float", "linearGreen:Float", "linearBlue:Float", "opacity:Float"])
        #expect(image.attribute(named: "garnishes")?.type == .transformable)
        #expect(cocktail.attribute(named: "tags") == nil, "@Transient")
        let garnish = try #require(cocktail.relationship(named: "garnish"))
        #expect(garnish.inverseName == "cocktails" && garnish.isToMany && !garnish.isOptional)
        #expect(cocktail.relationship(named: "spec")?.deletionRule == .cascade && cocktail.relationship(named: "spec")?.inverseName == nil)
        #expect(cocktail.fetchIndexes.map(\.name) == ["SwiftDataIndexOnBinarycocktailName", "SwiftDataIndexOnBinarycollectionName", "SwiftDataIndexOnBinarycocktailNamecollectionName"])
        #expect(cocktail.uniquenessConstraints == [["cocktailName"]])
    }

    @Test("without --schema every @Model class joins: MetaCocktails' sources hold one its store lacks, its enum with associated values read")
    func defaultSchemaIsEveryClass() throws {
        let model = try SwiftDataModelLoader.load(from: SwiftDataCorpus.metaCocktails.sources.path)
        #expect(model.entities.map(\.name).sorted() == (SwiftDataCorpus.metaCocktails.schema + ["OldCocktailIngredient"]).sorted())
        // OldCocktailIngredient.ingredient: IngredientType, an enum whose cases carry values:
        // each case a Composite of its values (as the SpeziScheduler store shows).
        let ingredient = try #require(model.entity(named: "OldCocktailIngredient")?.attribute(named: "ingredient"))
        #expect(ingredient.elements?.allSatisfy { $0.isOptional && ($0.type == .composite || $0.type == .string) } == true)
        #expect(ingredient.elements?.contains { $0.type == .composite && $0.elements?.first?.name == "_0" } == true, "\(ingredient)")
    }

    @Test("MetaCocktails' store: every table and index seedgen lays out from the sources is the store's own, word for word, and it verifies clean")
    func metaCocktailsLayout() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let app = SwiftDataCorpus.metaCocktails
        let store = try copyStore(app, into: directory)
        let layout = try StoreLayout(model: SwiftDataModelLoader.load(from: app.sources.path, schema: app.schema))
        let stored = try SQLiteShell.rows(store, "SELECT sql FROM sqlite_master WHERE sql IS NOT NULL AND name NOT LIKE 'A%' AND name NOT LIKE 'Z\\_TRANSACTION%' ESCAPE '\\' AND name NOT IN ('Z_PRIMARYKEY', 'Z_METADATA', 'Z_MODELCACHE')")
        let laidOut = layout.tables.map(\.createSQL) + layout.joinTables.map(\.createSQL) + layout.indexes.map(\.createSQL)
        #expect(Set(laidOut) == Set(stored), "only seedgen's: \(Set(laidOut).subtracting(stored)); only the store's: \(Set(stored).subtracting(laidOut))")
        #expect(stored.count == laidOut.count)
        let findings = try StoreVerifier(storePath: store, layout: layout).verify()
        #expect(findings.filter { !$0.isNote }.isEmpty, "\(findings)")
    }

    @Test("a dump of MetaCocktails' store builds back into the same objects, its to-many without an inverse (Cocktail.spec) too")
    func metaCocktailsDumpBuildsBack() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let app = SwiftDataCorpus.metaCocktails
        let store = try copyStore(app, into: directory)
        let model = ["--model", app.sources.path, "--schema", app.schema.joined(separator: ",")]
        let dump = try SeedgenTool.run(["dump", store, "-o", directory.path("dump.xml")] + model)
        #expect(dump.status == 0, "\(dump.error)")
        let build = try SeedgenTool.run(["build", "--output", directory.path("seed.sqlite"), directory.path("dump.xml")] + model)
        #expect(build.status == 0, "\(build.error)")
        let diff = try SeedgenTool.run(["diff", store, directory.path("seed.sqlite")] + model)
        #expect(diff.status == 0, "\(diff.output)\(diff.error)")
        #expect(diff.output.contains("the stores hold the same objects"), "\(diff.output)")
        // The owner column holds the same owners, row for row, named by the cocktails' unique names.
        let owners = "SELECT c.ZCOCKTAILNAME, COUNT(*) FROM ZINGREDIENT i JOIN ZCOCKTAIL c ON c.Z_PK = i.Z1SPEC GROUP BY 1 ORDER BY 1"
        let built = try SQLiteShell.rows(directory.path("seed.sqlite"), owners)
        #expect(built == (try SQLiteShell.rows(store, owners)))
        #expect(built.count > 300, "\(built.count) cocktails own ingredients")
        let verify = try SeedgenTool.run(["verify", "--as-built", directory.path("seed.sqlite")] + model)
        #expect(verify.status == 0, "\(verify.output)")
        // One ingredient moved to another cocktail's spec is a difference of both cocktails.
        try SQLiteShell.execute("UPDATE ZINGREDIENT SET Z1SPEC = (SELECT MAX(Z_PK) FROM ZCOCKTAIL) WHERE Z_PK = (SELECT MIN(Z_PK) FROM ZINGREDIENT WHERE Z1SPEC <> (SELECT MAX(Z_PK) FROM ZCOCKTAIL))", on: directory.path("seed.sqlite"))
        let moved = try SeedgenTool.run(["diff", store, directory.path("seed.sqlite")] + model)
        #expect(moved.status == 1 && moved.output.contains("spec"), "\(moved.output)\(moved.error)")
    }
}
