import Foundation
import SeedModel
import SeedModelLoader
import SeedgenTestSupport
import Testing

/// A seed carries its model as JSON (`DataModel.json()`) (`SEEDGEN_MODEL`): decoded, it must be the
/// model that was encoded — every description, so its version hashes and everything a layout
/// or a migration reads — and encoding it again must give the same bytes (a build stays
/// reproducible). Checked on every model the repository has, and on the corpus's.
@Suite("DataModel as JSON")
struct ModelCodingTests {
    static func models() throws -> [(String, DataModel)] {
        let root = Corpus.packageRoot
        var paths = ["Seeds/Events/Events.xcdatamodeld", "Seeds/Locations/Locations.xcdatamodeld", "Seeds/LapTimer/LapTimer.xcdatamodeld",
                     "Seeds/EMPlan/EMPlan.xcdatamodeld", "Tests/Fuzz/FuzzModel.xcdatamodel",
                     "Tests/PluginExample/Sources/ShelfApp/Seeds/Shelf/Shelf.xcdatamodeld"].map { root.appendingPathComponent($0).path }
        if Corpus.isAvailable { paths += Corpus.allStores.map(\.model.path) }
        return try paths.map { ($0, try ModelLoader.load(from: $0)) }
    }

    static func encoded(_ model: DataModel) throws -> Data {
        model.json()
    }

    @Test("decode(encode(model)) is the model (descriptions, fetch requests, hashes); encoding again gives the same bytes; no path in it")
    func roundTrip() throws {
        let models = try Self.models()
        #expect(models.count >= 6)
        for (path, model) in models {
            let json = try Self.encoded(model)
            let decoded = try DataModel(json: json, source: "carried")
            #expect(decoded.entities == model.entities, "\(path)")
            #expect(decoded.fetchRequests == model.fetchRequests, "\(path)")
            #expect(decoded.versionIdentifier == model.versionIdentifier, "\(path)")
            #expect(ModelIdentity(model: decoded) == ModelIdentity(model: model), "\(path)")
            #expect(decoded.source == "carried")
            #expect(try Self.encoded(decoded) == json, "\(path)")
            #expect(!String(decoding: json, as: UTF8.self).contains(Corpus.packageRoot.path), "\(path)")
        }
    }

    @Test("a carried model that breaks the model's rules is refused as a loaded one would be")
    func inconsistentModelRefused() throws {
        let json = #"{"entities":[{"attributes":[],"compoundIndexes":[],"fetchIndexes":[],"fetchedProperties":[],"isAbstract":false,"line":1,"name":"A","parentName":"Missing","relationships":[],"uniquenessConstraints":[],"userInfo":{}}],"fetchRequests":[],"versionIdentifier":""}"#
        #expect(throws: ModelError.self) { try DataModel(json: Data(json.utf8), source: "carried") }
    }
}
