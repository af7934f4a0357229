import Foundation
import SeedModel
import SeedStore

/// Writes sections of any source to the repository, as trees (`SourceNode`). A document's root
/// names entities by its keys (the entity's name, its English plural or a mapped name:
/// `SectionNames`), or a file holds one entity's objects (`entity(ofFile:given:)`); a section is
/// an array of objects or a dictionary of objects keyed by the entity's natural key. Inside an
/// object a relationship is a nested object, an array of them, or a reference by natural key.
struct SectionWriter {
    let repository: SeedRepository
    /// The format the sections come in, for messages.
    var syntax = SourceSyntax.propertyList
    var model: DataModel { repository.layout.model }

    /// The entity a section key names (`SectionNames`).
    func entity(forSection key: String, at location: InputLocation) throws(InputError) -> EntityDescription {
        model.entity(named: try repository.sectionNames.entity(for: key, at: location))!
    }

    /// The entity whose objects a file of one entity holds (CSV, TSV, a JSON array, JSON Lines):
    /// the one `given` names (`--entity`), else the one the file's name without its extension
    /// names as a section would (`Products.csv` holds Product's).
    func entity(ofFile path: String, given: String?) throws(InputError) -> EntityDescription {
        let location = InputLocation(file: path, line: 0, column: 0)
        if let given {
            guard let described = model.entity(named: given) else {
                throw InputError("the model has no entity '\(given)' (--entity)\(NameSuggestion.hint(for: given, in: model.entities.map(\.name)))", at: location)
            }
            return described
        }
        let file = path.split(separator: "/").last.map(String.init) ?? path
        let stem = file.lastIndex(of: ".").map { String(file[..<$0]) } ?? file
        do {
            return try entity(forSection: stem, at: location)
        } catch {
            throw InputError("\(error.message); or name the entity of this file's objects with --entity", at: location)
        }
    }

    /// Writes one item of a section; `key` is its dictionary key in a keyed section.
    func writeSectionItem(_ node: SourceNode, entity: EntityDescription, key: String?) throws(InputError) {
        _ = try write(node, entity: entity, naturalKey: key)
    }

    /// Writes an object and everything nested in it; returns its reference.
    private func write(_ node: SourceNode, entity: EntityDescription, naturalKey: String?) throws(InputError) -> ObjectReference {
        guard case .dictionary(var entries, let location) = node else {
            throw InputError("a \(entity.name) must be \(syntax.anObject), not \(node.kindName(syntax))", at: node.location)
        }
        let plan = try repository.plan(for: entity.name, at: location)
        if let naturalKey {
            guard let key = plan.key else {
                throw InputError("the \(entity.name) objects are keyed by '\(naturalKey)', but \(entity.name) has no natural key (--key \(entity.name)=attribute gives it one)", at: location)
            }
            guard let texts = key.values(of: naturalKey) else {
                throw InputError("'\(naturalKey)' is not a key of \(entity.name), which is \(key.syntax) (values separated by '|')", at: location)
            }
            for (keyName, keyText) in zip(key.names, texts) {
                if let given = entries.first(where: { $0.key == keyName }) {
                    if case .scalar(let text, let kind, _) = given.value, text != keyText || !kind.canBeKey {
                        let gives = kind.canBeKey ? "'\(text)'" : given.value.kindName(syntax)
                        throw InputError("\(entity.name) '\(naturalKey)' gives \(keyName) \(gives)", at: given.value.location)
                    }
                } else {
                    entries.append((keyName, .scalar(keyText, kind: .key, location)))
                }
            }
        }
        if !plan.composites.isEmpty {
            // A SwiftData struct given as one object: its members by path (`author.person`).
            var flattened: [(key: String, value: SourceNode)] = []
            for entry in entries {
                guard plan.composites.contains(entry.key), case .dictionary(let members, let place) = entry.value else {
                    flattened.append(entry)
                    continue
                }
                // A store holds such a value as every element NULL, which reads back as nil.
                guard !members.isEmpty else {
                    throw InputError("\(entity.name).\(entry.key) is given with no member: give its members, or leave it out for nil", at: place)
                }
                flattened += members.map { (entry.key + "." + $0.key, $0.value) }
            }
            entries = flattened
        }
        var values: [(name: String, property: EntityPlan.Property, value: SourceValue, location: InputLocation)] = []
        var nested: [(relationship: RelationshipDescription, node: SourceNode)] = []
        var identifier: String?
        var nils: [(name: String, location: InputLocation)] = []
        var identified: [(relationship: RelationshipDescription, node: SourceNode)] = []
        for (name, value) in entries {
            if case .scalar(_, .null, _) = value, name.first != "@" {
                // JSON's null: the value is not given, as if the name were left out.
                if case .unknown = plan.property(named: name) { throw plan.unknownProperty(name, at: value.location) }
                continue
            }
            if name.first == "@" {
                // @id names this object; @<relationship> names objects by their identifiers.
                if name == "@id" {
                    guard case .scalar(let text, .string, _) = value else {
                        throw InputError("@id takes \(syntax.aString), not \(value.kindName(syntax))", at: value.location)
                    }
                    identifier = text
                } else if name == "@nil" {
                    nils = try Self.names(in: value, of: "@nil", listing: "attribute names", syntax)
                } else if let relationship = plan.relationships[String(name.dropFirst())] {
                    identified.append((relationship, value))
                } else {
                    throw InputError("\(name): \(entity.name) has no relationship '\(name.dropFirst())' (@id names the object itself)", at: value.location)
                }
                continue
            }
            let property = plan.property(named: name)
            switch property {
            case .attribute(let slot):
                if case .array(let items, _) = value, slot.attribute.declaredValue == .stringArray,
                   let strings = items.compactStrings, let archive = StringArrayArchive.archive(strings) {
                    // A [String] straight to its archive, with no JSON text made and read again
                    // (anything else, `$null` included, goes the text's way to its error).
                    values.append((name, property, .value(.blob(archive)), value.location))
                    continue
                }
                if case .array = value, slot.attribute.declaredValue?.isArray == true {
                    // A SwiftData array (inside a struct, or a [String]): the converter reads its JSON text.
                    values.append((name, property, .text(String(decoding: try value.jsonText(syntax), as: UTF8.self)), value.location))
                    continue
                }
                guard case .scalar(let text, let kind, _) = value else {
                    throw InputError("\(entity.name).\(name) takes a single value, not \(value.kindName(syntax))", at: value.location)
                }
                guard kind.fits(slot.attribute.type) else {
                    throw InputError("\(entity.name).\(name) is \(slot.attribute.type.rawValue), not \(value.kindName(syntax))", at: value.location)
                }
                if kind == .date, slot.attribute.type == .date, text.first != "@" {
                    // A plist <date> is ISO 8601 UTC, whatever the attribute's own pattern (a
                    // binary plist's is the exact `@seconds`, which the converter reads as it is).
                    guard let seconds = DatePattern.iso8601.secondsSinceReferenceDate(text) else {
                        throw InputError("\(entity.name).\(name): '\(text)' is not an ISO 8601 <date>", at: value.location)
                    }
                    values.append((name, property, .value(.real(seconds)), value.location))
                } else if let boolean = kind.boolean {
                    values.append((name, property, .value(.integer(boolean ? 1 : 0)), value.location))
                } else {
                    values.append((name, property, .text(text), value.location))
                }
            case .toOne(let slot):
                if case .scalar(let text, let kind, _) = value {
                    guard kind.canBeKey else {
                        throw InputError("\(entity.name).\(name) names \(slot.relationship.destinationEntity) by its key, not \(value.kindName(syntax)) (a Boolean is never a key)", at: value.location)
                    }
                    values.append((name, property, .text(text), value.location))  // the destination's natural key
                } else {
                    nested.append((slot.relationship, value))
                }
            case .toMany(let relationship):
                nested.append((relationship, value))
            case .enumCase:
                guard case .scalar(let text, .string, _) = value else {
                    throw InputError("\(entity.name).\(name) is an enum: give a case's name as \(syntax.aString), not \(value.kindName(syntax))", at: value.location)
                }
                values.append((name, property, .text(text), value.location))
            case .unknown:
                if plan.composites.contains(name) { throw plan.valueError(name, at: value.location) }
                throw plan.unknownProperty(name, at: value.location)
            }
        }
        let object = try repository.insert(plan, values, nils: nils, identifier: identifier, at: location)
        for (relationship, value) in nested {
            try writeRelated(value, of: object, relationship)
        }
        for (relationship, value) in identified {
            try linkIdentified(value, of: object, relationship)
        }
        return object
    }

    /// The names a list entry gives (`@nil`, a to-many's `@<relationship>`): an array of
    /// strings, or one string of them separated by spaces, in order.
    private static func names(in node: SourceNode, of entry: String, listing: String, _ syntax: SourceSyntax) throws(InputError) -> [(name: String, location: InputLocation)] {
        switch node {
        case .scalar(let text, .string, let location):
            return text.split(whereSeparator: \.isWhitespace).map { (String($0), location) }
        case .array(let items, _):
            var names: [(String, InputLocation)] = []
            for item in items {
                guard case .scalar(let text, .string, let location) = item else {
                    throw InputError("\(entry) lists \(listing) as \(syntax.strings), not \(item.kindName(syntax))", at: item.location)
                }
                names.append((text, location))
            }
            return names
        default:
            throw InputError("\(entry) takes \(syntax.anArray) of \(listing) or \(syntax.aString), not \(node.kindName(syntax))", at: node.location)
        }
    }

    /// `@<relationship>`: one identifier, or for a to-many an array of them (or one string of
    /// them separated by spaces), in order.
    private func linkIdentified(_ node: SourceNode, of object: ObjectReference, _ relationship: RelationshipDescription) throws(InputError) {
        switch node {
        case .array(let items, _) where relationship.isToMany:
            // Item by item: a list of a million identifiers makes no second array of them.
            for item in items {
                guard case .scalar(let text, .string, let location) = item else {
                    throw InputError("@\(relationship.name) lists identifiers as \(syntax.strings), not \(item.kindName(syntax))", at: item.location)
                }
                try repository.link(object, relationship.name, toIdentifier: text, at: location)
            }
            return
        case .scalar(_, .string, _): break
        default:
            throw InputError("@\(relationship.name) takes \(relationship.isToMany ? "\(syntax.anArray) of identifiers or \(syntax.aString)" : "one identifier as \(syntax.aString)"), not \(node.kindName(syntax))", at: node.location)
        }
        let names = try Self.names(in: node, of: "@\(relationship.name)", listing: "identifiers", syntax)
        guard relationship.isToMany || names.count == 1 else {
            throw InputError("@\(relationship.name) is a to-one relationship and takes one identifier", at: node.location)
        }
        for (name, location) in names {
            try repository.link(object, relationship.name, toIdentifier: name, at: location)
        }
    }

    /// A relationship's value: one nested object, an array of objects or keys, or a keyed dictionary of objects.
    private func writeRelated(_ node: SourceNode, of object: ObjectReference, _ relationship: RelationshipDescription) throws(InputError) {
        let destination = model.entity(named: relationship.destinationEntity)!
        switch node {
        case .dictionary(let entries, _) where relationship.isToMany:
            for entry in entries {
                repository.nest(in: object, relationship.name)
                let child = try write(entry.value, entity: destination, naturalKey: entry.key)
                try repository.linkNested(child, in: object, relationship.name, at: entry.value.location)
            }
        case .dictionary:
            let child = try write(node, entity: destination, naturalKey: nil)
            try repository.link(object, relationship.name, to: child, at: node.location)
        case .array(let items, _) where relationship.isToMany:
            for item in items {
                if case .scalar(let key, let kind, let location) = item {
                    guard kind.canBeKey else {
                        throw InputError("\(object.entity).\(relationship.name) names its \(relationship.destinationEntity) objects by key, not \(item.kindName(syntax)) (a Boolean is never a key)", at: location)
                    }
                    try repository.link(object, relationship.name, toKey: key, at: location)
                } else {
                    repository.nest(in: object, relationship.name)
                    let child = try write(item, entity: destination, naturalKey: nil)
                    try repository.linkNested(child, in: object, relationship.name, at: item.location)
                }
            }
        case .scalar(let key, let kind, let location) where relationship.isToMany:
            guard kind.canBeKey else {
                throw InputError("\(object.entity).\(relationship.name) names its \(relationship.destinationEntity) objects by key, not \(node.kindName(syntax)) (a Boolean is never a key)", at: location)
            }
            try repository.link(object, relationship.name, toKey: key, at: location)
        default:
            throw InputError("\(object.entity).\(relationship.name) is a to-one relationship and takes \(syntax.anObject) or a key, not \(node.kindName(syntax))", at: node.location)
        }
    }
}
