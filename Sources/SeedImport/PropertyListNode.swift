import Foundation
import SeedModel
import SeedStore

/// One value of a property list, with where it was read (line 0 for binary plists).
indirect enum PropertyListNode {
    case scalar(String, kind: String, InputLocation)
    case array([PropertyListNode], InputLocation)
    case dictionary([(key: String, value: PropertyListNode)], InputLocation)

    var location: InputLocation {
        switch self {
        case .scalar(_, _, let location), .array(_, let location), .dictionary(_, let location): location
        }
    }

    var kindName: String {
        switch self {
        case .scalar(_, let kind, _): "<\(kind)>"
        case .array: "<array>"
        case .dictionary: "<dict>"
        }
    }
}

/// Writes property-list sections to the repository. The root dictionary's keys name entities
/// (singular or plural: `Groups` -> `Group`, `Matches` -> `Match`); a section is an array of
/// objects or a dictionary of objects keyed by the entity's natural key. Inside an object a
/// relationship is a nested object, an array of them, or a reference by natural key.
struct PropertyListSectionWriter {
    let repository: SeedRepository
    var model: DataModel { repository.layout.model }

    /// The entity a section key names.
    func entity(forSection key: String, at location: InputLocation) throws(InputError) -> EntityDescription {
        var candidates = [key]
        if key.hasSuffix("ies") { candidates.append(String(key.dropLast(3)) + "y") }
        if key.hasSuffix("es") { candidates.append(String(key.dropLast(2))) }
        if key.hasSuffix("s") { candidates.append(String(key.dropLast())) }
        guard let entity = candidates.lazy.compactMap({ model.entity(named: $0) }).first else {
            throw InputError("section '\(key)' names no entity of the model (\(model.entities.map(\.name).joined(separator: ", ")))", at: location)
        }
        return entity
    }

    /// Writes one item of a section; `key` is its dictionary key in a keyed section.
    func writeSectionItem(_ node: PropertyListNode, entity: EntityDescription, key: String?) throws(InputError) {
        _ = try write(node, entity: entity, naturalKey: key)
    }

    /// Writes an object and everything nested in it; returns its reference.
    private func write(_ node: PropertyListNode, entity: EntityDescription, naturalKey: String?) throws(InputError) -> ObjectReference {
        guard case .dictionary(var entries, let location) = node else {
            throw InputError("a \(entity.name) must be a <dict>, not \(node.kindName)", at: node.location)
        }
        let plan = try repository.plan(for: entity.name, at: location)
        if let naturalKey {
            guard let keyName = model.singleAttributeKey(of: entity)?.name else {
                throw InputError("the \(entity.name) objects are keyed by '\(naturalKey)', but \(entity.name) has no single-attribute uniqueness constraint", at: location)
            }
            if let given = entries.first(where: { $0.key == keyName }) {
                if case .scalar(let text, _, _) = given.value, text != naturalKey {
                    throw InputError("\(entity.name) '\(naturalKey)' gives \(keyName) '\(text)'", at: given.value.location)
                }
            } else {
                entries.append((keyName, .scalar(naturalKey, kind: "key", location)))
            }
        }
        var values: [(name: String, value: SourceValue)] = []
        var nested: [(relationship: RelationshipDescription, node: PropertyListNode)] = []
        for (name, value) in entries {
            switch plan.property(named: name) {
            case .attribute(let slot):
                guard case .scalar(let text, let kind, _) = value else {
                    throw InputError("\(entity.name).\(name) takes a single value, not \(value.kindName)", at: value.location)
                }
                if kind == "date", slot.attribute.type == .date, text.first != "@" {
                    // A plist <date> is ISO 8601 UTC, whatever the attribute's own pattern (a
                    // binary plist's is the exact `@seconds`, which the converter reads as it is).
                    guard let seconds = DatePattern.iso8601.secondsSinceReferenceDate(text) else {
                        throw InputError("\(entity.name).\(name): '\(text)' is not an ISO 8601 <date>", at: value.location)
                    }
                    values.append((name, .value(.real(seconds))))
                } else {
                    values.append((name, .text(text)))
                }
            case .toOne(let slot):
                if case .scalar(let text, _, _) = value {
                    values.append((name, .text(text)))  // the destination's natural key
                } else {
                    nested.append((slot.relationship, value))
                }
            case .toMany(let relationship):
                nested.append((relationship, value))
            case .unknown:
                throw InputError("entity '\(entity.name)' has no attribute or relationship '\(name)'", at: value.location)
            }
        }
        let object = try repository.insert(entity: entity.name, sourceValues: values, at: location)
        for (relationship, value) in nested {
            try writeRelated(value, of: object, relationship)
        }
        return object
    }

    /// A relationship's value: one nested object, an array of objects or keys, or a keyed dictionary of objects.
    private func writeRelated(_ node: PropertyListNode, of object: ObjectReference, _ relationship: RelationshipDescription) throws(InputError) {
        let destination = model.entity(named: relationship.destinationEntity)!
        switch node {
        case .dictionary(let entries, _) where relationship.isToMany:
            for (position, entry) in entries.enumerated() {
                let child = try write(entry.value, entity: destination, naturalKey: entry.key)
                try repository.link(object, relationship.name, to: child, position: position + 1, at: entry.value.location)
            }
        case .dictionary:
            let child = try write(node, entity: destination, naturalKey: nil)
            try repository.link(object, relationship.name, to: child, at: node.location)
        case .array(let items, _) where relationship.isToMany:
            for (position, item) in items.enumerated() {
                if case .scalar(let key, _, let location) = item {
                    try repository.link(object, relationship.name, toKey: key, at: location)
                } else {
                    let child = try write(item, entity: destination, naturalKey: nil)
                    try repository.link(object, relationship.name, to: child, position: position + 1, at: item.location)
                }
            }
        case .scalar(let key, _, let location) where relationship.isToMany:
            try repository.link(object, relationship.name, toKey: key, at: location)
        default:
            throw InputError("\(object.entity).\(relationship.name) is a to-one relationship and takes a <dict> or a key, not \(node.kindName)", at: node.location)
        }
    }
}
