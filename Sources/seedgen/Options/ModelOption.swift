import ArgumentParser
import Foundation
import SeedModel
import SeedModelLoader
import SeedStore

/// `--model M`: the Core Data model to use.
struct ModelOption: ParsableArguments {
    @Option(name: .long, help: "The Core Data model: an .xcdatamodeld bundle, an .xcdatamodel folder or a 'contents' file.")
    var model: String

    /// Loads the model; a missing one is exit 2, a bad one an input error (exit 1) naming file and line.
    func load() throws -> DataModel {
        try requireModelFile(model)
        do {
            return try ModelLoader.load(from: model)
        } catch {
            throw CommandFailure.failed("\(error)")
        }
    }

    /// Loads the model and works out its store layout in `era`.
    func loadLayout(era: FrameworkEra = .newest) throws -> StoreLayout {
        let model = try load()
        do {
            return try StoreLayout(model: model, era: era)
        } catch {
            throw CommandFailure.failed("\(error)")
        }
    }
}
