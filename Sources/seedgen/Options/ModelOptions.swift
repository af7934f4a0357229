import ArgumentParser
import Foundation
import SeedModel
import SeedModelLoader
import SeedStore

/// The help of every `--model` option.
let modelHelp = "The model: an .xcdatamodeld bundle, an .xcdatamodel folder or a 'contents' file, or a SwiftData app's sources (a .swift file or a folder of them, see --schema)."

/// The model at `path`: a Core Data model file, or SwiftData sources read with `schema`. A model
/// that is not there is exit 2, one that is wrong exit 1, naming the file and line.
func loadModel(_ path: String, schema: [String]?) throws -> DataModel {
    try loadModelVersions(path, schema: schema).current.model
}

/// The versions of the model bundle at `path` (a plain model is one version; SwiftData sources
/// are their `SchemaMigrationPlan`'s schemas, or one): a model that is not there is exit 2, one
/// that is wrong exit 1, naming the file and line.
func loadModelVersions(_ path: String, schema: [String]? = nil) throws -> ModelVersions {
    try requireModelFile(path)
    do {
        if ModelSource(path: path) == .swiftSources {
            return try SwiftDataHelper.loadVersions(path, schema: schema)
        }
        guard schema == nil else {
            throw CommandFailure.usage("--schema names the @Model classes of SwiftData sources; \(path) is a Core Data model")
        }
        return try ModelLoader.loadVersions(from: path)
    } catch let failure as CommandFailure {
        throw failure
    } catch {
        throw CommandFailure.failed("\(error)")
    }
}

/// Exit 2 (a file that cannot be read) when nothing is at the model's path.
func requireModelFile(_ path: String) throws {
    guard FileManager.default.fileExists(atPath: path) else {
        throw CommandFailure.usage("\(path): no such model file or folder")
    }
}

/// The store layout of the model the seed at `path` carries (seedgen builds carry theirs), for
/// commands whose `--model` may be left out; a store that carries none is a usage error.
func carriedLayout(of path: String) throws -> StoreLayout {
    try FileRefusal.checkStore(path)
    do {
        guard let model = try SeedRecord.carriedModel(at: path) else {
            throw CommandFailure.failed("\(path) carries no model (\(SeedRecord.modelTable): a seed this seedgen built); give it with --model")
        }
        return try StoreLayout(model: model)
    } catch let failure as CommandFailure {
        throw failure
    } catch {
        throw CommandFailure.file(error, "\(path): its model cannot be read: \(error)")
    }
}
