import SeedModel
import SeedgenTestSupport

/// A generated pair of model versions: a source model of a few entities with attributes and
/// every kind of relationship, and a destination made from it by one to three of Core Data's
/// inferred changes (`Change`), each element knowing what it was in the source. Written as
/// `contents` text for `StoreFixture.model`, with Composite attributes (SwiftData's structs and
/// enums, which `contents` cannot hold) added to the model read (`model(of:in:)`).
struct ModelPair: CustomStringConvertible {
    struct Attribute {
        var name: String
        /// The source attribute it takes over (nil: added).
        var source: String?
        var type: String
        var optional = true
        var defaultValue: String?
    }

    struct Relationship {
        var name: String
        var source: String?
        /// The destination entity, by its `id`.
        var destination: Int
        /// The inverse's name on the destination entity.
        var inverse: String
        var toMany: Bool
        var ordered = false
    }

    /// A Composite attribute: a struct's members, or a raw-value enum's one element named like
    /// the Composite (`alone`). Each element's `source` is its stored name in the source model
    /// (`c.e0`, or `c` alone), nil when the destination adds it.
    struct Composite {
        var name: String
        var source: String?
        var elements: [Attribute]
        var alone: Bool { elements.count == 1 && elements[0].name == name }

        /// The stored name of `element` (`c.e0`; the Composite's own name alone).
        func stored(_ element: Attribute) -> String { alone ? name : name + "." + element.name }
    }

    struct Entity {
        /// Stable across versions (relationships name their destination by it).
        var id: Int
        var name: String
        var source: String?
        var attributes: [Attribute]
        var relationships: [Relationship] = []
        var composite: Composite?
    }

    /// Core Data's inferred changes the destination is made by.
    enum Change: CaseIterable {
        case addAttribute, removeAttribute, renameAttribute, makeRequired
        case addEntity, removeEntity, renameEntity
        case addRelationship, removeRelationship, renameRelationship, makeOrdered, makeToOne, replaceWithToMany
        case addElement, removeElement, renameComposite, addComposite, removeComposite, retypeElement
    }

    var source: [Entity]
    var destination: [Entity]
    var changes: [Change] = []

    var description: String { "\(changes) on \(source.map(\.name))" }

    static let types = ["Integer 32", "String", "Double", "Boolean"]

    /// A source model and a destination made from it by 1–3 changes, drawn from `random`.
    init(random: inout SplitMix64) {
        var entities: [Entity] = []
        for id in 0..<Int.random(in: 2...4, using: &random) {
            let attributes = (0..<Int.random(in: 1...3, using: &random)).map { index in
                Attribute(name: "a\(index)", source: "a\(index)", type: Self.types.randomElement(using: &random)!)
            }
            entities.append(Entity(id: id, name: "E\(id)", source: "E\(id)", attributes: attributes,
                                   composite: Bool.random(using: &random) ? Self.composite(source: true, random: &random) : nil))
        }
        var pair = 0
        for _ in 0..<Int.random(in: 1...4, using: &random) {
            Self.relate(&entities, pair: &pair, random: &random)
        }
        source = entities
        destination = entities
        let wanted = Int.random(in: 1...3, using: &random)
        // Changes that do not apply to this model (nothing to remove, say), or that undo one
        // another (an entity added, then removed), are drawn again.
        for _ in 0..<30 where changes.count < wanted || Self.contents(source) == Self.contents(destination) {
            let change = Change.allCases.randomElement(using: &random)!
            if apply(change, pair: &pair, random: &random) { changes.append(change) }
        }
    }

    /// A Composite `c`: a raw-value enum's one String element, or a struct of 1–3 members;
    /// `source`: its elements are the source model's.
    private static func composite(source: Bool, random: inout SplitMix64) -> Composite {
        // An added one is named apart: under the removed one's name it would take its values over.
        let name = source ? "c" : "d"
        if Int.random(in: 0..<3, using: &random) == 0 {
            return Composite(name: name, source: source ? name : nil, elements: [Attribute(name: name, source: source ? name : nil, type: "String")])
        }
        let elements = (0..<Int.random(in: 1...3, using: &random)).map { index in
            Attribute(name: "e\(index)", source: source ? "\(name).e\(index)" : nil, type: Self.types.randomElement(using: &random)!)
        }
        return Composite(name: name, source: source ? name : nil, elements: elements)
    }

    /// Adds a relationship and its inverse between two entities (maybe the same one): one-to-one,
    /// one-to-many (its to-many ordered or not) or many-to-many.
    private static func relate(_ entities: inout [Entity], pair: inout Int, random: inout SplitMix64) {
        pair += 1
        let from = Int.random(in: 0..<entities.count, using: &random), to = Int.random(in: 0..<entities.count, using: &random)
        let (forward, back) = ("r\(pair)", "r\(pair)back")
        let kind = Int.random(in: 0..<4, using: &random)
        let (forwardMany, backMany) = [(false, false), (false, true), (true, true), (false, true)][kind]
        let ordered = kind == 3
        entities[from].relationships.append(Relationship(name: forward, source: forward, destination: entities[to].id, inverse: back, toMany: forwardMany))
        entities[to].relationships.append(Relationship(name: back, source: back, destination: entities[from].id, inverse: forward, toMany: backMany, ordered: ordered))
    }

    /// Applies `change` to the destination; false when the model has nothing it applies to.
    private mutating func apply(_ change: Change, pair: inout Int, random: inout SplitMix64) -> Bool {
        guard let index = destination.indices.randomElement(using: &random) else { return false }
        switch change {
        case .addAttribute:
            let name = "added\(destination[index].attributes.count)"
            guard !destination[index].attributes.contains(where: { $0.name == name }) else { return false }
            destination[index].attributes.append(Attribute(name: name, source: nil, type: "Integer 32", defaultValue: "7"))
        case .removeAttribute:
            guard destination[index].attributes.count > 1, let at = destination[index].attributes.indices.randomElement(using: &random) else { return false }
            destination[index].attributes.remove(at: at)
        case .renameAttribute:
            guard let at = destination[index].attributes.indices.randomElement(using: &random), destination[index].attributes[at].source != nil else { return false }
            destination[index].attributes[at].name += "renamed"
        case .makeRequired:
            guard let at = destination[index].attributes.indices.randomElement(using: &random), destination[index].attributes[at].optional else { return false }
            destination[index].attributes[at].optional = false
            destination[index].attributes[at].defaultValue = ["Integer 32": "3", "String": "none", "Double": "1.5", "Boolean": "YES"][destination[index].attributes[at].type]
        case .addEntity:
            let id = (destination.map(\.id).max() ?? 0) + 1 + source.count
            destination.append(Entity(id: id, name: "New\(id)", source: nil, attributes: [Attribute(name: "a0", source: nil, type: "String")]))
        case .removeEntity:
            guard destination.count > 1 else { return false }
            let id = destination[index].id
            destination.remove(at: index)
            for other in destination.indices { destination[other].relationships.removeAll { $0.destination == id } }
        case .renameEntity:
            guard destination[index].source != nil, destination[index].name == destination[index].source else { return false }
            destination[index].name += "Renamed"
        case .addRelationship:
            Self.relate(&destination, pair: &pair, random: &random)
            // New on both sides: neither takes a source relationship's links.
            for entity in destination.indices {
                for at in destination[entity].relationships.indices where destination[entity].relationships[at].name.hasPrefix("r\(pair)") {
                    destination[entity].relationships[at].source = nil
                }
            }
        case .addElement:
            guard var composite = destination[index].composite, !composite.alone else { return false }
            composite.elements.append(Attribute(name: "x\(composite.elements.count)", source: nil, type: Self.types.randomElement(using: &random)!))
            destination[index].composite = composite
        case .removeElement:
            guard var composite = destination[index].composite, !composite.alone, composite.elements.count > 1,
                  let at = composite.elements.indices.randomElement(using: &random) else { return false }
            composite.elements.remove(at: at)
            destination[index].composite = composite
        case .retypeElement:
            // Refused: Core Data infers no type change, an element's no more than an attribute's.
            guard var composite = destination[index].composite, let at = composite.elements.indices.randomElement(using: &random),
                  composite.elements[at].source != nil else { return false }
            composite.elements[at].type = Self.types.filter { $0 != composite.elements[at].type }.randomElement(using: &random)!
            destination[index].composite = composite
        case .renameComposite:
            guard var composite = destination[index].composite, composite.source != nil, composite.name == composite.source else { return false }
            let alone = composite.alone
            composite.name += "renamed"
            // A raw-value enum's element is named like its property, renamed with it.
            if alone { composite.elements[0].name = composite.name }
            destination[index].composite = composite
        case .addComposite:
            guard destination[index].composite == nil else { return false }
            destination[index].composite = Self.composite(source: false, random: &random)
        case .removeComposite:
            guard destination[index].composite != nil else { return false }
            destination[index].composite = nil
        case .removeRelationship, .renameRelationship, .makeOrdered, .makeToOne, .replaceWithToMany:
            guard let at = destination[index].relationships.indices.randomElement(using: &random) else { return false }
            let relationship = destination[index].relationships[at]
            guard let target = destination.firstIndex(where: { $0.id == relationship.destination }),
                  let back = destination[target].relationships.firstIndex(where: { $0.name == relationship.inverse }) else { return false }
            switch change {
            case .removeRelationship:
                destination[index].relationships.remove(at: at)
                let inverse = destination[target].relationships.firstIndex { $0.name == relationship.inverse }!
                destination[target].relationships.remove(at: inverse)
            case .renameRelationship:
                guard relationship.source != nil, relationship.name == relationship.source else { return false }
                destination[index].relationships[at].name += "renamed"
                destination[target].relationships[back].inverse = destination[index].relationships[at].name
            case .replaceWithToMany:
                // CoreDataPlus' BookMigration: a to-one gives way to a to-many of another name,
                // its inverse kept (a one-to-many becomes a many-to-many): the links come from it.
                guard !relationship.toMany, relationship.source != nil, destination[target].relationships[back].source != nil else { return false }
                let name = relationship.name + "many"
                destination[index].relationships[at] = Relationship(name: name, source: nil, destination: relationship.destination, inverse: relationship.inverse, toMany: true)
                destination[target].relationships[back].inverse = name
            case .makeOrdered:
                guard relationship.toMany, !relationship.ordered else { return false }
                destination[index].relationships[at].ordered = true
            default:
                guard relationship.toMany else { return false }
                destination[index].relationships[at].toMany = false
                destination[index].relationships[at].ordered = false
            }
        }
        return true
    }

    /// The model of `entities`: their `contents` read, each Composite added to its entity (a
    /// renamed one carrying its source name as its renaming identifier).
    static func model(of entities: [Entity], in directory: TemporaryDirectory) throws -> DataModel {
        let read = try StoreFixture.model(contents(entities), in: directory)
        let composites = Dictionary(uniqueKeysWithValues: entities.compactMap { entity in entity.composite.map { (entity.name, $0) } })
        return try DataModel(entities: read.entities.map { entity in
            guard let composite = composites[entity.name] else { return entity }
            var entity = entity
            var attribute = AttributeDescription(name: composite.name, type: .composite, isOptional: true)
            attribute.renamingIdentifier = composite.source.flatMap { $0 == composite.name ? nil : $0 }
            attribute.elements = composite.elements.map { AttributeDescription(name: $0.name, type: AttributeType(rawValue: $0.type)!, isOptional: true) }
            entity.attributes.append(attribute)
            return entity
        }, fetchRequests: read.fetchRequests, versionIdentifier: read.versionIdentifier)
    }

    /// The `contents` entities of `entities`.
    static func contents(_ entities: [Entity]) -> String {
        let names = Dictionary(uniqueKeysWithValues: entities.map { ($0.id, $0.name) })
        return entities.map { entity in
            let renamed = entity.source.map { $0 == entity.name ? "" : " elementID=\"\($0)\"" } ?? ""
            var lines = ["<entity name=\"\(entity.name)\"\(renamed)>"]
            for attribute in entity.attributes {
                let renamed = attribute.source.map { $0 == attribute.name ? "" : " elementID=\"\($0)\"" } ?? ""
                let value = attribute.defaultValue.map { " defaultValueString=\"\($0)\"" } ?? ""
                lines.append("    <attribute name=\"\(attribute.name)\"\(renamed) optional=\"\(attribute.optional ? "YES" : "NO")\" attributeType=\"\(attribute.type)\"\(value)/>")
            }
            for relationship in entity.relationships {
                let renamed = relationship.source.map { $0 == relationship.name ? "" : " elementID=\"\($0)\"" } ?? ""
                let many = relationship.toMany ? " toMany=\"YES\"" + (relationship.ordered ? " ordered=\"YES\"" : "") : " maxCount=\"1\""
                let target = names[relationship.destination]!
                lines.append("    <relationship name=\"\(relationship.name)\"\(renamed) optional=\"YES\"\(many) deleteRule=\"Nullify\" destinationEntity=\"\(target)\" inverseName=\"\(relationship.inverse)\" inverseEntity=\"\(target)\"/>")
            }
            lines.append("</entity>")
            return lines.joined(separator: "\n")
        }.joined(separator: "\n")
    }
}
