import ArgumentParser
import Foundation
import SeedModel
import SeedStore

/// `--model M` and `--schema`: the model to use, a Core Data model or SwiftData sources.
struct ModelOption: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(modelHelp))
    var model: String

    @OptionGroup var schema: SchemaOption

    /// Loads the model; a missing one is exit 2, a bad one an input error (exit 1) naming file and line.
    func load() throws -> DataModel {
        try loadModel(model, schema: schema.schema)
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
