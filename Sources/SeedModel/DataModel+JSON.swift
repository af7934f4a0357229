import Foundation

/// A model as JSON, as a seed carries it (`SEEDGEN_MODEL`): its entities, fetch request
/// templates and version identifier, keys sorted so a build stays reproducible. The source file
/// is not part of it (a build's path is no part of its output).
extension DataModel {
    private struct Carried: Codable {
        var entities: [EntityDescription]
        var fetchRequests: [FetchRequestTemplate]
        var versionIdentifier: String
    }

    /// The model's JSON.
    package func json() -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(Carried(entities: entities, fetchRequests: fetchRequests, versionIdentifier: versionIdentifier)) else {
            preconditionFailure("a model's descriptions hold strings, numbers and flags only")
        }
        return data
    }

    /// The model `json` holds, checked as a loaded one is; `source` names where it came from.
    package init(json: Data, source: String) throws {
        let carried = try JSONDecoder().decode(Carried.self, from: json)
        try self.init(entities: carried.entities, fetchRequests: carried.fetchRequests,
                      versionIdentifier: carried.versionIdentifier, source: source)
    }
}
