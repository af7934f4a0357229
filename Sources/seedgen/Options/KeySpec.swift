import ArgumentParser

/// `build --key Entity=attribute[,attribute…]`: the attributes that name an entity's objects in
/// this build. Whether the model has them is checked once the model is read.
struct KeySpec: ExpressibleByArgument {
    let entity: String
    /// As given: an empty name or one named twice is left for the model's check to name.
    let attributes: [String]

    init?(argument: String) {
        let parts = argument.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty else { return nil }
        entity = String(parts[0])
        attributes = parts[1].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
    }
}
