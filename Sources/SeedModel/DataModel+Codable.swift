/// A model as data (a seed carries its model so that a later seed can update and migrate a store
/// installed from it without the model's source): its entities, fetch request templates and
/// version identifier. The source file is not part of it (a build's path is no part of its
/// output); a decoded model names the source the decoder's `userInfo[DataModel.sourceKey]` gives.
extension DataModel: Codable {
    /// The `userInfo` key whose `String` value a decoded model names as its source.
    public static let sourceKey = CodingUserInfoKey(rawValue: "org.seedgen.model-source")!

    private enum CodingKeys: String, CodingKey {
        case entities, fetchRequests, versionIdentifier
    }

    /// Decodes a model and checks that it is consistent, as a loaded one is.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        try self.init(entities: try container.decode([EntityDescription].self, forKey: .entities),
                      fetchRequests: try container.decode([FetchRequestTemplate].self, forKey: .fetchRequests),
                      versionIdentifier: try container.decode(String.self, forKey: .versionIdentifier),
                      source: decoder.userInfo[Self.sourceKey] as? String ?? "<model>")
    }

    /// Encodes the model's entities, fetch request templates and version identifier.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(entities, forKey: .entities)
        try container.encode(fetchRequests, forKey: .fetchRequests)
        try container.encode(versionIdentifier, forKey: .versionIdentifier)
    }
}
