import ArgumentParser

/// `build --section Section=Entity`: a section name (of a property list, JSON, or a one-entity
/// file's name) for an entity. Whether the model has the entity is checked once it is read.
struct SectionSpec: ExpressibleByArgument {
    let section: String
    let entity: String

    init?(argument: String) {
        let parts = argument.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else { return nil }
        section = String(parts[0])
        entity = String(parts[1])
    }
}
