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

    /// The key of `entity`, when it has one.
    package static func of(_ entity: EntityDescription, in model: DataModel, buildKeys: [String: [String]]) -> NaturalKey? {
        model.naturalKey(of: entity, buildKeys: buildKeys).map { NaturalKey(names: $0.names, declaringEntity: $0.declaringEntity) }
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
    /// have (or a transient one), an empty list or one attribute named twice.
    static func problems(of buildKeys: [String: [String]], in model: DataModel) -> [String] {
        var problems: [String] = []
        for (entityName, names) in buildKeys.sorted(by: { $0.key < $1.key }) {
            guard let entity = model.entity(named: entityName) else {
                problems.append("--key \(entityName): the model has no entity '\(entityName)'\(NameSuggestion.hint(for: entityName, in: model.entities.map(\.name)))")
                continue
            }
            if names.isEmpty || Set(names).count != names.count {
                problems.append("--key \(entityName): name each attribute once")
            }
            let attributes = model.storedAttributes(of: entity).filter { !$0.isTransient }.map(\.name)
            for name in names where !attributes.contains(name) {
                problems.append("--key \(entityName)=\(names.joined(separator: ",")): \(entityName) has no stored attribute '\(name)'\(NameSuggestion.hint(for: name, in: attributes))")
            }
        }
        return problems
    }
}
