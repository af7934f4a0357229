import Foundation
import SeedModel

/// The model a seed was built with, carried in the seed file (`SEEDGEN_MODEL`, one row of JSON:
/// `DataModel.json()`, keys sorted, so a build stays reproducible). A store installed
/// from the seed carries it too: an update needs no model source to read the new seed, and one
/// whose model changed finds the store's version in the store itself and migrates it first —
/// on Linux and on Apple platforms alike.
extension SeedRecord {
    /// The table's name.
    package static let modelTable = "SEEDGEN_MODEL"

    /// Its definition. A build makes it with Core Data's tables (`StoreBuilder`), before the
    /// rows: a table made after them would move a page of theirs, and a copy would not.
    package static let createModelTableSQL = "CREATE TABLE main.\(modelTable) (MODEL TEXT)"

    /// Writes `model` as the seed's model, replacing the one the store held.
    package static func writeModel(_ model: DataModel, in database: Database) throws(SQLiteError) {
        try database.execute("DROP TABLE IF EXISTS main.\(modelTable); \(createModelTableSQL)")
        try insertModel(model, in: database)
    }

    /// Writes `model` into the empty table.
    static func insertModel(_ model: DataModel, in database: Database) throws(SQLiteError) {
        try database.run("INSERT INTO main.\(modelTable) (MODEL) VALUES (?)", [.text(String(decoding: model.json(), as: UTF8.self))])
    }

    /// The model the store or seed at `path` carries, nil when it carries none (a store seedgen
    /// did not build, or built before seeds carried their model).
    package static func carriedModel(at path: String) throws -> DataModel? {
        try model(in: try StoreFile(path: path).database, path: path)
    }

    /// The model the store open on `database` carries, nil when it carries none.
    static func model(in database: Database, path: String) throws -> DataModel? {
        guard try isPresent(modelTable, in: database), let json = try database.scalar("SELECT MODEL FROM \(modelTable) LIMIT 1")?.text else { return nil }
        return try DataModel(json: Data(json.utf8), source: "\(path) (\(modelTable))")
    }
}
