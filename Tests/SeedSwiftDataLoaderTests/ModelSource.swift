import Foundation
import SeedModel
import SeedSwiftDataLoader
import SeedgenTestSupport
import Testing

/// The model of `source`, written as `Model.swift` in a temporary folder.
func load(_ source: String, schema: [String]? = nil) throws -> DataModel {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    return try SwiftDataModelLoader.load(from: directory.write(source, to: "Model.swift"), schema: schema)
}

/// The error `source` is refused with, its file shortened to the name.
func refusal(_ source: String, schema: [String]? = nil) throws -> ModelError {
    var error = try #require(throws: ModelError.self) { try load(source, schema: schema) }
    error.file = URL(fileURLWithPath: error.file).lastPathComponent
    return error
}
