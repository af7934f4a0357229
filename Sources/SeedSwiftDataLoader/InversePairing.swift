import SeedModel

/// Pairs relationships with their inverses as SwiftData does: an `inverse:` key path pairs
/// both sides; a relationship without one is paired with the one relationship of its
/// destination that points back, when each side has exactly one such (seen in real stores).
struct InversePairing {
    private(set) var relationships: [PendingRelationship]

    /// `relationships` with every inverse set, or the place where pairing is not known.
    static func paired(_ relationships: [PendingRelationship]) throws(ModelError) -> [PendingRelationship] {
        var pairing = InversePairing(relationships: relationships)
        try pairing.pair()
        return pairing.relationships
    }

    private mutating func pair() throws(ModelError) {
        for index in relationships.indices {
            guard let inverse = relationships[index].explicitInverse else { continue }
            let place = relationships[index].place
            guard let other = relationships.firstIndex(where: { $0.entity == inverse.entity && $0.description.name == inverse.property }) else {
                throw place.error("inverse: \\\(inverse.entity).\(inverse.property) is no relationship of \(inverse.entity)")
            }
            guard relationships[other].description.destinationEntity == relationships[index].entity else {
                throw place.error("inverse: \\\(inverse.entity).\(inverse.property) points at \(relationships[other].description.destinationEntity), not back at \(relationships[index].entity)")
            }
            if let rival = relationships.indices.first(where: { $0 < index && relationships[$0].explicitInverse.map { $0.entity == inverse.entity && $0.property == inverse.property } == true }) {
                throw place.error("'\(relationships[index].description.name)' and '\(relationships[rival].description.name)' (\(relationships[rival].place)) both name \\\(inverse.entity).\(inverse.property) as their inverse: a relationship has one inverse, and which of the two SwiftData pairs is not known here; give each its own")
            }
            if let named = relationships[other].explicitInverse,
               named.entity != relationships[index].entity || named.property != relationships[index].description.name {
                throw place.error("inverse: \\\(inverse.entity).\(inverse.property) names \(named.entity).\(named.property) as its own inverse")
            }
            try link(index, other)
        }
        // Inferred: only where one relationship on each side points at the other's entity.
        for index in relationships.indices where relationships[index].description.inverseName == nil {
            let source = relationships[index]
            let destination = source.description.destinationEntity
            guard destination != source.entity else { continue }  // Assumed: a self-relationship gets no inferred inverse.
            let outward = unpaired(from: source.entity, to: destination)
            let backward = unpaired(from: destination, to: source.entity)
            guard !backward.isEmpty else { continue }
            guard outward.count == 1, backward.count == 1 else {
                let names = (outward + backward).map { "\(relationships[$0].entity).\(relationships[$0].description.name)" }.joined(separator: ", ")
                throw source.place.error("which of \(names) SwiftData pairs as inverses is not known when several point between \(source.entity) and \(destination); give @Relationship(inverse:) on each pair")
            }
            try link(index, backward[0])
        }
    }

    private func unpaired(from entity: String, to destination: String) -> [Int] {
        relationships.indices.filter {
            relationships[$0].entity == entity && relationships[$0].description.destinationEntity == destination
                && relationships[$0].description.inverseName == nil
        }
    }

    private mutating func link(_ first: Int, _ second: Int) throws(ModelError) {
        for (index, other) in [(first, second), (second, first)] {
            if let existing = relationships[index].description.inverseName, existing != relationships[other].description.name {
                throw relationships[index].place.error("'\(relationships[index].description.name)' is already the inverse of \(existing)")
            }
            relationships[index].description.inverseName = relationships[other].description.name
            relationships[index].description.inverseEntity = relationships[other].entity
        }
    }
}
