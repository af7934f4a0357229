import SeedModel

/// The attributes that name an entity's objects in a build: merged when two objects give the
/// same values, and named by those values in references. The nearest entity of the lineage that
/// declares one decides: a build-time key (`ImportOptions.keys`) first, then the model's first
/// uniqueness constraint (`DataModel.naturalKey(of:buildKeys:)`). Build-time keys are not part
/// of the layout or the hashes; the store's metadata records them (`org.seedgen.keys`), so that
/// `seedgen diff` matches objects by the key that named them.
package struct NaturalKey {
    /// The key's attributes, in the order a reference gives their values.
    package let names: [String]
    /// The entity that declares it; its whole subtree shares the key's values.
    let declaringEntity: EntityDescription

    /// The key of `entity` that its import merges objects by and references name, when it has
    /// one. A key through a to-one (`--key Ingredient=recipe,name`) is none here: its objects
    /// are not merged, a reference cannot name them by it, and the finished rows are checked to
    /// give each key once (`SeedRepository.finish`, `ObjectNames.keySQL`).
    package static func of(_ entity: EntityDescription, in model: DataModel, buildKeys: [String: [String]]) -> NaturalKey? {
        guard let key = model.naturalKey(of: entity, buildKeys: buildKeys) else { return nil }
        // A key naming a to-one keys no object by attributes alone: a build's names an object
        // within its owner (`isThroughToOne`); a model's constraint over a to-one keys nothing
        // here (its attributes alone would merge objects of different owners).
        let attributes = Set(model.storedAttributes(of: key.declaringEntity).map(\.name))
        guard key.names.allSatisfy(attributes.contains) else { return nil }
        return NaturalKey(names: key.names, declaringEntity: key.declaringEntity)
    }

    /// Whether `key` is a build's key that names a to-one (a model's uniqueness constraint is
    /// taken as it always was).
    static func isThroughToOne(_ key: (names: [String], declaringEntity: EntityDescription), in model: DataModel, buildKeys: [String: [String]]) -> Bool {
        guard buildKeys[key.declaringEntity.name] == key.names else { return false }
        let attributes = Set(model.storedAttributes(of: key.declaringEntity).map(\.name))
        return !key.names.allSatisfy(attributes.contains)
    }

    /// The values a reference gives: the text itself for a key of one attribute; for a compound
    /// key the values in the key's order separated by `|`, with `\|` and `\\` for a `|` or `\`
    /// inside a value (`Highball|12`). Nil when the count does not match.
    func values(of text: String) -> [String]? {
        guard names.count > 1 else { return [text] }
        var parts = [""]
        var escaped = false
        for character in text {
            if escaped {
                parts[parts.count - 1].append(character)
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else if character == "|" {
                parts.append("")
            } else {
                parts[parts.count - 1].append(character)
            }
        }
        return parts.count == names.count && !escaped ? parts : nil
    }

    /// The text a reference gives for `values` (the inverse of `values(of:)`).
    package func text(of values: [String]) -> String {
        guard names.count > 1 else { return values[0] }
        return values.map { $0.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "|", with: "\\|") }.joined(separator: "|")
    }

    /// How a reference to this key is written, for messages: `name` or `name|size`.
    var syntax: String { names.joined(separator: "|") }

    /// Problems with build-time keys for `model`: an unknown entity, an attribute it does not
    /// have (or a transient one), an empty list or one attribute named twice; for a key through a
    /// to-one, more than one to-one, none but it, or a to-one into an abstract entity, into one
    /// without a key, or back into itself through other keys.
    static func problems(of buildKeys: [String: [String]], in model: DataModel) -> [String] {
        var problems: [String] = []
        for (entityName, names) in buildKeys.sorted(by: { $0.key < $1.key }) {
            guard let entity = model.entity(named: entityName) else {
                problems.append("--key \(entityName): the model has no entity '\(entityName)'\(NameSuggestion.hint(for: entityName, in: model.entities.map(\.name)))")
                continue
            }
            let spec = "--key \(entityName)=\(names.joined(separator: ","))"
            if names.isEmpty || Set(names).count != names.count {
                problems.append("--key \(entityName): name each attribute once")
            }
            let attributes = model.storedAttributes(of: entity).filter { !$0.isTransient }.map(\.name)
            let toOnes = model.allRelationships(of: entity).filter { !$0.isToMany && !$0.isTransient }
            var owners: [RelationshipDescription] = []
            for name in names where !attributes.contains(name) {
                if let toOne = toOnes.first(where: { $0.name == name }) {
                    owners.append(toOne)
                } else if model.allRelationships(of: entity).contains(where: { $0.name == name }) {
                    problems.append("\(spec): '\(name)' is a to-many; a key may name one to-one, the object its objects are named within")
                } else {
                    problems.append("\(spec): \(entityName) has no stored attribute '\(name)'\(NameSuggestion.hint(for: name, in: attributes + toOnes.map(\.name)))")
                }
            }
            guard let owner = owners.first else { continue }
            if owners.count > 1 {
                problems.append("\(spec): a key may name one to-one, not \(owners.count) (\(owners.map { "'\($0.name)'" }.joined(separator: ", ")))")
            } else if owners.count == names.count {
                problems.append("\(spec): name an attribute beside the to-one '\(owner.name)': it names \(entityName) objects within their \(owner.destinationEntity)")
            } else if let problem = ownerProblem(of: entityName, through: owner, buildKeys: buildKeys, in: model) {
                problems.append("\(spec): \(problem)")
            }
        }
        return problems
    }

    /// Why the to-one `owner` of `entityName` cannot name its objects' owner in a key: its
    /// destination is abstract or has no key, or the keys lead back to `entityName`.
    private static func ownerProblem(of entityName: String, through owner: RelationshipDescription, buildKeys: [String: [String]], in model: DataModel) -> String? {
        var chain = [entityName]
        var relationship = owner
        while true {
            guard let destination = model.entity(named: relationship.destinationEntity) else { return "'\(relationship.name)' leads to no entity" }
            if destination.isAbstract {
                return "'\(relationship.name)' leads to the abstract \(destination.name); its objects are named by their own entity's key"
            }
            if chain.contains(destination.name) {
                return "the keys name their owners in a circle (\((chain + [destination.name]).joined(separator: " → ")))"
            }
            guard let key = model.naturalKey(of: destination, buildKeys: buildKeys) else {
                return "'\(relationship.name)' leads to \(destination.name), which has no key (give it one: --key \(destination.name)=…, or a uniqueness constraint)"
            }
            chain.append(destination.name)
            let next = model.allRelationships(of: destination).first { key.names.contains($0.name) && !$0.isToMany }
            guard let next else { return nil }
            relationship = next
        }
    }
}
